/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_TOOLS_COMMANDS_H
#define GPUROBUST_TOOLS_COMMANDS_H

/* Exit codes of the gpurobust command, documented in gpurobust(1). */
enum gpurobust_exit {
	GPUROBUST_EXIT_OK = 0,
	GPUROBUST_EXIT_FAILURE = 1,	/* a call failed; the message names it */
	GPUROBUST_EXIT_USAGE = 2,	/* bad arguments */
	GPUROBUST_EXIT_NO_DEVICE = 3,	/* no amdgpu device on this machine */
	GPUROBUST_EXIT_NOTHING = 4,	/* report: the input has nothing amdgpu to report */
	GPUROBUST_EXIT_TEMPFAIL = 75,	/* send: the store is unreachable; try again */
};

struct gpurobust_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

/* One entry point per subcommand, each in its own file. */
int cmd_status(int argc, char **argv);
int cmd_classify(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_collect(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_wedged(int argc, char **argv);
int cmd_triage(int argc, char **argv);
int cmd_group(int argc, char **argv);
int cmd_send(int argc, char **argv);

#endif
