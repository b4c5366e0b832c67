/*
 * wasmsand_proc.h — C guests' side of the "wasmsand" host module's
 * process functions (see sandbox/spawn.go for the ABI): start a command in
 * the sandbox, wait for it, end it, make a pipe. Every function returns 0
 * or an errno value; file descriptors are WASI's, as wasi-libc uses them.
 *
 * Linking wasmsand_proc.c also makes the program start in the directory
 * $PWD names (wasi-libc starts in "/"), as a command the shell runs should,
 * and buffers its stdout fully, as glibc does when it is no terminal.
 */
#ifndef WASMSAND_PROC_H
#define WASMSAND_PROC_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* wasmsand_spawn starts argv (NULL-terminated) with envp (NULL-terminated;
   NULL for the caller's environment) in dir (NULL or "" for the caller's
   working directory), with the three descriptors as its standard streams.
   The command is found as the shell finds it. */
int wasmsand_spawn(char *const argv[], char *const envp[], const char *dir,
                   int fd_in, int fd_out, int fd_err, int *pid);

/* wasmsand_wait waits for pid and stores its exit status (0-255). */
int wasmsand_wait(int pid, int *status);

/* wasmsand_wait_timeout is wasmsand_wait for at most ns nanoseconds:
   EAGAIN if the command still runs. */
int wasmsand_wait_timeout(int pid, int64_t ns, int *status);

/* wasmsand_kill ends pid: it exits with status 143. */
int wasmsand_kill(int pid);

/* wasmsand_sigpipe tells the sandbox whether the caller ignores SIGPIPE:
   if it does, a write to a pipe with no reader fails with EPIPE; if not
   (every program's start), such a write ends it with status 141. */
int wasmsand_sigpipe(int ignore);

/* wasmsand_pipe makes a pipe: fds[0] reads, fds[1] writes. */
int wasmsand_pipe(int fds[2]);

/* wasmsand_system runs `/bin/sh -c cmd` with the caller's standard
   streams and environment and returns a wait status (exit code << 8), or
   -1 with errno set; like system(3), a NULL cmd asks whether a shell
   exists. */
int wasmsand_system(const char *cmd);

/* wasmsand_popen and wasmsand_pclose are popen(3) and pclose(3) over
   wasmsand_spawn: mode "r" reads the command's output, "w" writes its
   input. pclose returns a wait status, or -1. */
FILE *wasmsand_popen(const char *cmd, const char *mode);
int wasmsand_pclose(FILE *f);

/* wasmsand_chmod sets permission bits (the host's path_chmod); relative
   paths resolve against the current directory. 0 or -1 with errno. */
int wasmsand_chmod(const char *path, mode_t mode);

#endif
