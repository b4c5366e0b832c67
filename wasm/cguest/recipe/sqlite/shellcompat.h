/*
 * shellcompat.h — included before Debian's shell.c when it is built for
 * WASI: what the SQLite shell uses that wasi-libc lacks. There are no
 * users (getpwuid finds none, so the shell reads $HOME), and system,
 * popen and chmod go through the wasmsand host's functions.
 */
#include <stdio.h>
#include <sys/types.h>

#include "wasmsand_proc.h"

struct passwd {
	char *pw_name;
	char *pw_dir;
};
static inline int wasi_getuid(void) { return 1000; }
static inline struct passwd *wasi_getpwuid(int uid) {
	(void)uid;
	return NULL;
}
#define getuid wasi_getuid
#define getpwuid wasi_getpwuid
#define system wasmsand_system
#define popen wasmsand_popen
#define pclose wasmsand_pclose
#define chmod wasmsand_chmod
