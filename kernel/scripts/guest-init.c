// SPDX-License-Identifier: MIT
/* Copyright © 2026 The gpurobust authors */
/*
 * /init of the initramfs kernel/scripts/guest-lib.sh boots: mounts what the
 * programs it runs need (sw_sync lives in debugfs, DRM devices in
 * devtmpfs), runs /program, prints its exit status between markers the
 * scripts read, and reboots, which ends QEMU (it runs with -no-reboot).
 */
#include <stdio.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void mount_or_say(const char *source, const char *target, const char *type)
{
	mkdir(target, 0755);
	if (mount(source, target, type, 0, NULL))
		perror(target);
}

int main(void)
{
	int status = -1;
	pid_t pid;

	mount_or_say("proc", "/proc", "proc");
	mount_or_say("sysfs", "/sys", "sysfs");
	mount_or_say("devtmpfs", "/dev", "devtmpfs");
	mount_or_say("debugfs", "/sys/kernel/debug", "debugfs");

	printf("guest: start\n");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execl("/program", "program", (char *)NULL);
		perror("exec /program");
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		perror("/program");
	if (WIFEXITED(status))
		printf("guest: exit %d\n", WEXITSTATUS(status));
	else
		printf("guest: died (wait status %d)\n", status);
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	return 1;
}
