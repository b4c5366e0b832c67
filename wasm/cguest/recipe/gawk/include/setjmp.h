/*
 * setjmp.h for gawk under wasm32-wasi, which has no setjmp/longjmp
 * (before the exception-handling proposal). gawk jumps only in its
 * debugger (-D), to return to the debugger's prompt after a fatal error
 * or when its pager quits; outside the debugger fatal errors exit. Here
 * setjmp returns 0 and a longjmp ends the program with status 2, as a
 * fatal error does.
 */
#ifndef WASMSAND_GAWK_SETJMP_H
#define WASMSAND_GAWK_SETJMP_H
#include <stdlib.h>
typedef int jmp_buf[1];
#define setjmp(env) ((void)(env), 0)
#define longjmp(env, val) ((void)(env), (void)(val), exit(2))
#endif
