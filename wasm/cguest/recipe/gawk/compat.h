/*
 * compat.h — included before each of gawk's files when it is built for
 * WASI: what gawk uses that wasi-libc lacks. Commands (system(), "cmd" |
 * getline, print | "cmd", |& coprocesses) run through the wasmsand host's
 * process functions (wasi.patch spawns them where gawk would fork); the
 * process and user ids are the sandbox's (one user, uid 1000); a signal
 * sent to the program itself ends it with 128 + the signal's number, as the
 * shell reports a killed process; ignoring SIGPIPE is told to the host.
 */
#ifndef WASMSAND_GAWK_COMPAT_H
#define WASMSAND_GAWK_COMPAT_H

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

#include <wasi/api.h>

#include "wasmsand_proc.h"

#define system wasmsand_system
#define popen wasmsand_popen
#define pclose wasmsand_pclose
#define chmod wasmsand_chmod

/* Wait statuses as wasmsand_system and wasmsand_pclose return them:
   the exit code in the second byte; nothing is ever killed by a signal
   the guest can see. */
#ifndef WIFEXITED
#define WIFEXITED(s) (((s) & 0x7f) == 0)
#define WEXITSTATUS(s) (((s) >> 8) & 0xff)
#define WIFSIGNALED(s) 0
#define WTERMSIG(s) 0
#define WIFSTOPPED(s) 0
#define WSTOPSIG(s) 0
#define WCOREDUMP(s) 0
#endif

static inline int wasmsand_gawk_pipe(int fds[2]) {
	int err = wasmsand_pipe(fds);
	if (err != 0) {
		errno = err;
		return -1;
	}
	return 0;
}
#define pipe wasmsand_gawk_pipe

/* SIGPIPE's disposition goes to the host: gawk ignores SIGPIPE (a write
   to a closed pipe fails with EPIPE, and gawk reports it) and restores it
   around the commands it starts, which the sandbox starts with the
   default. */
static inline void (*wasmsand_gawk_signal(int sig, void (*handler)(int)))(int) {
	if (sig == SIGPIPE)
		(void)wasmsand_sigpipe(handler == SIG_IGN);
	return signal(sig, handler);
}
#define signal wasmsand_gawk_signal

static inline int wasmsand_gawk_kill(pid_t pid, int sig) {
	if (pid == getpid())
		_Exit(128 + sig);	/* as the signal would: nothing is flushed */
	int err = wasmsand_kill((int)pid);
	if (err != 0) {
		errno = err;
		return -1;
	}
	return 0;
}
#define kill wasmsand_gawk_kill

/* dup2 for remap_std_file, which puts /dev/null on a closed standard
   descriptor: WASI's renumber moves from onto to (from is then closed,
   which gawk does next anyway). */
static inline int wasmsand_gawk_dup2(int from, int to) {
	__wasi_errno_t err = __wasi_fd_renumber((__wasi_fd_t)from, (__wasi_fd_t)to);
	if (err != 0) {
		errno = err;
		return -1;
	}
	return to;
}
#define dup2 wasmsand_gawk_dup2

/* The debugger's "run" restarts gawk with execvp: not in a sandbox. */
static inline int wasmsand_gawk_execvp(const char *file, char *const argv[]) {
	(void)file, (void)argv;
	errno = ENOSYS;
	return -1;
}
#define execvp wasmsand_gawk_execvp

static inline pid_t wasmsand_gawk_getppid(void) { return 1; }
static inline pid_t wasmsand_gawk_getpgrp(void) { return getpid(); }
static inline uid_t wasmsand_gawk_getuid(void) { return 1000; }
static inline gid_t wasmsand_gawk_getgid(void) { return 1000; }
#define getppid wasmsand_gawk_getppid
#define getpgrp wasmsand_gawk_getpgrp
#define getuid wasmsand_gawk_getuid
#define geteuid wasmsand_gawk_getuid
#define getgid wasmsand_gawk_getgid
#define getegid wasmsand_gawk_getgid
#define getgroups(n, list) ((void)(n), (void)(list), 0)

#endif
