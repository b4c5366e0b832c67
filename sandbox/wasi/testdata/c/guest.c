// guest is a wasm32-wasi (wasi-libc) test program for package wasi: each
// argument names a scenario that exercises part of the WASI host and prints
// what it saw, so the test can compare the output.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void check(int ok, const char *what) {
	if (!ok) {
		printf("error: %s: %s\n", what, strerror(errno));
		exit(1);
	}
}

static void cat(const char *path) {
	char buf[256];
	FILE *f = fopen(path, "r");
	if (!f) {
		printf("%s: %s\n", path, strerror(errno));
		return;
	}
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = 0;
	fclose(f);
	printf("%s \"%s\"\n", path, buf);
}

static int cmp(const void *a, const void *b) {
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list(const char *path) {
	DIR *d = opendir(path);
	check(d != NULL, path);
	char *names[64];
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && n < 64)
		names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, n, sizeof names[0], cmp);
	printf("ls %s:", path);
	for (int i = 0; i < n; i++)
		printf(" %s", names[i]);
	printf("\n");
}

static void files(void) {
	check(mkdir("work", 0755) == 0, "mkdir");
	FILE *f = fopen("work/a.txt", "w");
	check(f != NULL, "fopen w");
	fputs("hello", f);
	fclose(f);
	f = fopen("work/a.txt", "a");
	check(f != NULL, "fopen a");
	fputs(", world", f);
	fclose(f);
	cat("work/a.txt");

	int fd = open("work/a.txt", O_RDONLY);
	check(fd >= 0, "open");
	char buf[16] = {0};
	check(pread(fd, buf, 5, 7) == 5, "pread");
	printf("pread \"%s\"\n", buf);
	off_t off = lseek(fd, -3, SEEK_END);
	memset(buf, 0, sizeof buf);
	check(read(fd, buf, sizeof buf) == 3, "read");
	printf("lseek %lld \"%s\"\n", (long long)off, buf);
	close(fd);

	fd = open("work/a.txt", O_CREAT | O_EXCL | O_WRONLY, 0644);
	printf("excl %d %s\n", fd, strerror(errno));
	fd = open("work/missing", O_RDONLY);
	printf("missing %d %s\n", fd, strerror(errno));
	fd = open("work/a.txt/x", O_RDONLY);
	printf("notdir %d %s\n", fd, strerror(errno));

	struct stat st;
	check(stat("work/a.txt", &st) == 0, "stat");
	printf("stat size %lld reg %d\n", (long long)st.st_size, S_ISREG(st.st_mode));

	check(rename("work/a.txt", "work/b.txt") == 0, "rename");
	check(symlink("b.txt", "work/link") == 0, "symlink");
	char target[64] = {0};
	check(readlink("work/link", target, sizeof target) == 5, "readlink");
	printf("readlink %s\n", target);
	check(lstat("work/link", &st) == 0, "lstat");
	printf("lstat link %d\n", S_ISLNK(st.st_mode));
	cat("work/link");
	check(link("work/b.txt", "work/hard") == 0, "link");
	check(truncate("work/hard", 2) == 0, "truncate");
	cat("work/b.txt");
	list("work");
	check(rmdir("work") != 0 && errno == ENOTEMPTY, "rmdir nonempty");
	check(unlink("work/b.txt") == 0, "unlink");
	check(unlink("work/link") == 0, "unlink link");
	check(unlink("work/hard") == 0, "unlink hard");
	check(rmdir("work") == 0, "rmdir");
	printf("done\n");
}

int main(int argc, char **argv) {
	if (argc < 2) {
		fprintf(stderr, "usage: guest scenario\n");
		return 2;
	}
	const char *s = argv[1];
	if (!strcmp(s, "cwd")) {
		cat("f.txt");
		cat("./f.txt");
		cat("/etc/motd");
		cat("../user/f.txt");
		cat("/home/user/f.txt");
		list(".");
	} else if (!strcmp(s, "files")) {
		files();
	} else if (!strcmp(s, "env")) {
		printf("args");
		for (int i = 2; i < argc; i++)
			printf(" %s", argv[i]);
		printf("\nFOO %s\n", getenv("FOO"));
	} else if (!strcmp(s, "cat")) {
		char buf[4096];
		size_t n;
		while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
			fwrite(buf, 1, n, stdout);
	} else if (!strcmp(s, "sleep")) {
		struct timespec a, b, d = {0, 30 * 1000 * 1000};
		clock_gettime(CLOCK_MONOTONIC, &a);
		nanosleep(&d, NULL);
		clock_gettime(CLOCK_MONOTONIC, &b);
		long long ns = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
		printf("slept %d\n", ns >= 30000000LL);
	} else if (!strcmp(s, "exit")) {
		exit(9);
	} else {
		fprintf(stderr, "unknown scenario %s\n", s);
		return 2;
	}
	return 0;
}
