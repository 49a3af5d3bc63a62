// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/* gpurobust: the command-line front end. Each subcommand lives in its own file
 * and is listed in the table below. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

static const struct gpurobust_command commands[] = {
	{ "status", "list DRM devices, driver, interface version, reset semantics", cmd_status },
	{ "classify", "walk evidence through the reset classification (L1-L13)", cmd_classify },
	{ "report", "one readable report of a GPU hang from its devcoredump and log", cmd_report },
	{ "watch", "collect devcoredumps and resets into the crash store", cmd_watch },
	{ "collect", "store one devcoredump in the crash store and free it (udev)", cmd_collect },
	{ "list", "the stored GPU crashes you may read, like coredumpctl list", cmd_list },
	{ "info", "one stored crash in full, with its report", cmd_info },
	{ "dump", "write a stored crash's devcoredump", cmd_dump },
	{ "wedged", "record a DRM device's WEDGED uevent with the crashes (udev)", cmd_wedged },
	{ "triage", "the crash store's buckets, or a fleet store's groups", cmd_triage },
	{ "send", "send the outbox's crashes to a fleet store", cmd_send },
	{ "group", "cluster breadcrumb reports in a directory into root causes", cmd_group },
	{ NULL, NULL, NULL },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: gpurobust COMMAND [ARGS]\n\ncommands:\n");
	for (const struct gpurobust_command *c = commands; c->name; c++)
		fprintf(out, "  %-10s %s\n", c->name, c->summary);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return GPUROBUST_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return GPUROBUST_EXIT_OK;
	}
	for (const struct gpurobust_command *c = commands; c->name; c++)
		if (!strcmp(argv[1], c->name))
			return c->run(argc - 1, argv + 1);
	fprintf(stderr, "gpurobust: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return GPUROBUST_EXIT_USAGE;
}
