/* wasmsand_proc.c — see wasmsand_proc.h. */
#define _POSIX_C_SOURCE 200809L
#include "wasmsand_proc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WASMSAND_IMPORT(name) __attribute__((import_module("wasmsand"), import_name(name)))

WASMSAND_IMPORT("proc_spawn")
uint32_t wasmsand_import_proc_spawn(const char *argv, uint32_t argv_len, const char *env, uint32_t env_len,
                                    const char *dir, uint32_t dir_len, uint32_t fd_in, uint32_t fd_out,
                                    uint32_t fd_err, int32_t *pid);
WASMSAND_IMPORT("proc_wait")
uint32_t wasmsand_import_proc_wait(int32_t pid, uint32_t *status);
WASMSAND_IMPORT("proc_wait_timeout")
uint32_t wasmsand_import_proc_wait_timeout(int32_t pid, int64_t ns, uint32_t *status);
WASMSAND_IMPORT("proc_kill")
uint32_t wasmsand_import_proc_kill(int32_t pid);
WASMSAND_IMPORT("path_chmod")
uint32_t wasmsand_import_path_chmod(const char *path, uint32_t path_len, uint32_t mode, uint32_t follow);
WASMSAND_IMPORT("fd_pipe")
uint32_t wasmsand_import_fd_pipe(uint32_t *fds);
WASMSAND_IMPORT("proc_sigpipe")
uint32_t wasmsand_import_proc_sigpipe(uint32_t ignore);

extern char **environ;

/* pack joins the strings of a NULL-terminated list, each NUL-terminated,
   into a malloc'd buffer; *len is its size. */
static char *pack(char *const list[], uint32_t *len) {
	size_t n = 0;
	for (int i = 0; list && list[i]; i++) n += strlen(list[i]) + 1;
	char *buf = malloc(n ? n : 1);
	if (!buf) return NULL;
	size_t off = 0;
	for (int i = 0; list && list[i]; i++) {
		size_t k = strlen(list[i]) + 1;
		memcpy(buf + off, list[i], k);
		off += k;
	}
	*len = (uint32_t)n;
	return buf;
}

int wasmsand_spawn(char *const argv[], char *const envp[], const char *dir, int fd_in, int fd_out, int fd_err,
                   int *pid) {
	uint32_t alen, elen;
	if (!argv || !argv[0]) return EINVAL;
	char *a = pack(argv, &alen);
	char *e = pack(envp ? envp : environ, &elen);
	if (!a || !e) {
		free(a);
		free(e);
		return ENOMEM;
	}
	int32_t p = 0;
	uint32_t en = wasmsand_import_proc_spawn(a, alen, e, elen, dir ? dir : "", dir ? (uint32_t)strlen(dir) : 0,
	                                         (uint32_t)fd_in, (uint32_t)fd_out, (uint32_t)fd_err, &p);
	free(a);
	free(e);
	if (en == 0) *pid = p;
	return (int)en;
}

int wasmsand_wait(int pid, int *status) {
	uint32_t st = 0;
	uint32_t en = wasmsand_import_proc_wait(pid, &st);
	if (en == 0) *status = (int)st;
	return (int)en;
}

int wasmsand_wait_timeout(int pid, int64_t ns, int *status) {
	uint32_t st = 0;
	uint32_t en = wasmsand_import_proc_wait_timeout(pid, ns, &st);
	if (en == 0) *status = (int)st;
	return (int)en;
}

int wasmsand_kill(int pid) { return (int)wasmsand_import_proc_kill(pid); }

int wasmsand_sigpipe(int ignore) { return (int)wasmsand_import_proc_sigpipe(ignore != 0); }

int wasmsand_pipe(int fds[2]) {
	uint32_t f[2];
	uint32_t en = wasmsand_import_fd_pipe(f);
	if (en == 0) {
		fds[0] = (int)f[0];
		fds[1] = (int)f[1];
	}
	return (int)en;
}

int wasmsand_system(const char *cmd) {
	if (cmd == NULL) return 1;
	char *argv[] = {"/bin/sh", "-c", (char *)cmd, NULL};
	int pid, status, en;
	if ((en = wasmsand_spawn(argv, NULL, NULL, 0, 1, 2, &pid)) != 0 || (en = wasmsand_wait(pid, &status)) != 0) {
		errno = en;
		return -1;
	}
	return (status & 0xff) << 8;
}

/* popen's children, by the FILE the caller holds. */
static struct {
	FILE *f;
	int pid;
} popened[16];

FILE *wasmsand_popen(const char *cmd, const char *mode) {
	int reading = mode && mode[0] == 'r';
	if (!cmd || !mode || (mode[0] != 'r' && mode[0] != 'w')) {
		errno = EINVAL;
		return NULL;
	}
	int slot = -1;
	for (int i = 0; i < (int)(sizeof popened / sizeof popened[0]); i++) {
		if (!popened[i].f) {
			slot = i;
			break;
		}
	}
	if (slot < 0) {
		errno = EMFILE;
		return NULL;
	}
	int fds[2], en, pid;
	if ((en = wasmsand_pipe(fds)) != 0) {
		errno = en;
		return NULL;
	}
	char *argv[] = {"/bin/sh", "-c", (char *)cmd, NULL};
	en = reading ? wasmsand_spawn(argv, NULL, NULL, 0, fds[1], 2, &pid)
	             : wasmsand_spawn(argv, NULL, NULL, fds[0], 1, 2, &pid);
	close(reading ? fds[1] : fds[0]);
	if (en != 0) {
		close(reading ? fds[0] : fds[1]);
		errno = en;
		return NULL;
	}
	FILE *f = fdopen(reading ? fds[0] : fds[1], reading ? "r" : "w");
	if (!f) {
		close(reading ? fds[0] : fds[1]);
		return NULL;
	}
	popened[slot].f = f;
	popened[slot].pid = pid;
	return f;
}

int wasmsand_pclose(FILE *f) {
	for (int i = 0; i < (int)(sizeof popened / sizeof popened[0]); i++) {
		if (popened[i].f == f) {
			int pid = popened[i].pid, status, en;
			popened[i].f = NULL;
			fclose(f);
			if ((en = wasmsand_wait(pid, &status)) != 0) {
				errno = en;
				return -1;
			}
			return (status & 0xff) << 8;
		}
	}
	errno = ECHILD;
	return -1;
}

int wasmsand_chmod(const char *path, mode_t mode) {
	char buf[4096];
	const char *p = path;
	if (path[0] != '/') {
		if (!getcwd(buf, sizeof buf) || strlen(buf) + strlen(path) + 2 > sizeof buf) return -1;
		if (strcmp(buf, "/") != 0) strcat(buf, "/");
		strcat(buf, path);
		p = buf;
	}
	uint32_t en = wasmsand_import_path_chmod(p, (uint32_t)strlen(p), (uint32_t)mode, 1);
	if (en != 0) {
		errno = (int)en;
		return -1;
	}
	return 0;
}

/* wasi-libc buffers stdout by lines even when it is no terminal (and the
   sandbox's never is); glibc buffers it fully there, in blocks of a pipe's
   or a file's st_blksize. Do as glibc does: the program's output then
   comes in the same order against its stderr and its children's output as
   on Linux, and a line is no longer a write. */
__attribute__((constructor)) static void wasmsand_init_stdout(void) {
	static char buf[4096];
	if (!isatty(1)) setvbuf(stdout, buf, _IOFBF, sizeof buf);
}

/* wasi-libc starts every program in "/": the sandbox passes the working
   directory in $PWD (as Go's wasip1 runtime expects), so start there. */
__attribute__((constructor)) static void wasmsand_init_cwd(void) {
	const char *pwd = getenv("PWD");
	if (pwd && pwd[0] == '/') chdir(pwd);
}
