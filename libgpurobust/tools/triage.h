/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/* gpurobust triage: the local store's buckets, or a fleet store's groups. */
#ifndef GPUROBUST_TOOLS_TRIAGE_H
#define GPUROBUST_TOOLS_TRIAGE_H

#include <stdbool.h>

#include <gpurobust/fleet.h>

struct triage_args {
	struct gpurobust_fleet_query query;
	const char *group;	/* --group: one group's spread */
	bool json;
};

/* Answer @a from the fleet store at @uri. Return: an exit code. */
int triage_fleet(const char *uri, const struct triage_args *a);

#endif
