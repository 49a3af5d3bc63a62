// SPDX-License-Identifier: MIT
/* Copyright © 2026 The gpurobust authors */
/*
 * /program of guest-kselftest.sh's guest: brings up the fake amdgpu device
 * the kselftest opens, runs the kselftest, and takes the device down.
 *
 * The device is hosted by the KUnit case amdgpu_kselftest_host, which the
 * boot-time executor skipped: writing its debugfs run file runs it again,
 * in a child that stays in write() while the device lives. Once the
 * device's control file exists, /amdgpu_reset_uapi runs; then "quit" ends
 * the case, whose KTAP result is printed as TAP comments. Exits with the
 * kselftest's status, or 1 when the host case did not pass. A kernel
 * without the host case runs the kselftest alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HOST_SUITE	"/sys/kernel/debug/kunit/amdgpu_kselftest_host"
#define CONTROL		"/sys/kernel/debug/amdgpu_fake_control"
#define KSELFTEST	"/amdgpu_reset_uapi"

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	int r;

	if (fd < 0)
		return -errno;
	r = write(fd, text, strlen(text)) < 0 ? -errno : 0;
	close(fd);
	return r;
}

/* Print the host case's result and return whether it passed. */
static int host_passed(void)
{
	FILE *results = fopen(HOST_SUITE "/results", "r");
	char line[256];
	int passed = 0;

	if (!results) {
		printf("# host: no results: %s\n", strerror(errno));
		return 0;
	}
	while (fgets(line, sizeof(line), results)) {
		printf("# host: %s", line);
		if (!strncmp(line, "ok 1 amdgpu_kselftest_host", 26))
			passed = 1;
	}
	fclose(results);
	return passed;
}

/* Run the kselftest; returns its wait status. */
static int run_kselftest(void)
{
	int status = -1;
	pid_t test;

	fflush(stdout);
	test = fork();
	if (test == 0) {
		execl(KSELFTEST, KSELFTEST, (char *)NULL);
		perror("exec " KSELFTEST);
		_exit(127);
	}
	if (test < 0 || waitpid(test, &status, 0) < 0)
		perror(KSELFTEST);
	return status;
}

int main(void)
{
	time_t end = time(NULL) + 120;
	int status, host_status;
	pid_t host;

	if (access(HOST_SUITE "/run", W_OK)) {
		printf("# no %s: no fake device, the kselftest runs alone\n",
		       HOST_SUITE);
		status = run_kselftest();
		return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	}

	fflush(stdout);
	host = fork();
	if (host == 0)
		_exit(write_file(HOST_SUITE "/run", "1") ? 1 : 0);
	while (access(CONTROL, W_OK) && time(NULL) < end)
		usleep(100000);

	status = run_kselftest();
	if (write_file(CONTROL, "quit"))
		printf("# could not tell the host to quit\n");
	if (host < 0 || waitpid(host, &host_status, 0) < 0)
		perror("host");
	if (!host_passed())
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
