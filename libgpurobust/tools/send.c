// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * gpurobust send [--store URI] [--outbox DIR] [--batch N] [--wait SECONDS]
 *
 * The store and the outbox default to collect.conf's FleetStore= and
 * FleetOutbox=; with no store there named, there is nothing to do.
 *
 * Sends the crashes this machine keeps in its outbox to a fleet store, and
 * removes each once the store has it. A store that cannot be reached is no
 * loss: the crashes stay, and the next run sends them (exit code 75, as
 * sysexits' EX_TEMPFAIL, so a timer or a queue runner tries again). With
 * --wait, the run itself tries again, for up to SECONDS, through a server
 * restart or a failover.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gpurobust/fleet.h>

#include "collect-conf.h"
#include "commands.h"
#include "crash-common.h"

static int usage(int c)
{
	fprintf(c == 'h' ? stdout : stderr,
		"usage: gpurobust send [--store URI] [--outbox DIR] [--batch N] [--wait S]\n"
		"                      [--config-dir DIR]\n"
		"  --store URI       the fleet store: sqlite://PATH or postgresql://...\n"
		"                    (default: collect.conf's FleetStore=)\n"
		"  --outbox DIR      the crashes to send (default: FleetOutbox=, %s)\n"
		"  --batch N         crashes per transaction (default 500)\n"
		"  --wait S          while the store is unreachable, try again for S seconds\n"
		"  --config-dir DIR  collect.conf and collect.conf.d/ (default %s)\n",
		GPUROBUST_OUTBOX_DIR, GPUROBUST_CONF_DIR);
	return c == 'h' ? GPUROBUST_EXIT_OK : GPUROBUST_EXIT_USAGE;
}

static bool unreachable(int r)
{
	return r == -ECONNREFUSED || r == -ENOTCONN;
}

/* One attempt: open the store and send the outbox. An unreachable store is
 * the caller's to report, with @why. */
static int send_outbox(const char *uri, const char *shown, const char *outbox,
		       unsigned long batch, size_t *sent, char *why, size_t why_size)
{
	struct gpurobust_fleet *fleet;
	size_t done = 0, bad = 0;
	int r = gpurobust_fleet_open(uri, &fleet);

	if (r) {
		snprintf(why, why_size, "%s", gpurobust_fleet_error(NULL));
		if (!unreachable(r))
			fprintf(stderr, "gpurobust send: %s: %s; the crashes stay in %s\n", shown,
				why, outbox);
		return r;
	}
	r = gpurobust_fleet_outbox_flush(outbox, fleet, batch, &done, &bad);
	*sent += done;
	snprintf(why, why_size, "%s", gpurobust_fleet_error(fleet)[0] ?
		 gpurobust_fleet_error(fleet) : strerror(-r));
	if (bad)
		fprintf(stderr, "gpurobust send: %zu file%s in %s held no crash: moved aside "
			"as *.json.bad\n", bad, bad == 1 ? "" : "s", outbox);
	if (r && !unreachable(r))
		fprintf(stderr, "gpurobust send: %s: %s; sent %zu, the rest stay in %s\n", shown,
			why, *sent, outbox);
	gpurobust_fleet_close(fleet);
	return r;
}

static double monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cmd_send(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "store", required_argument, NULL, 'S' },
		{ "outbox", required_argument, NULL, 'o' },
		{ "batch", required_argument, NULL, 'b' },
		{ "wait", required_argument, NULL, 'w' },
		{ "config-dir", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *uri = NULL, *outbox = NULL, *conf_dir = GPUROBUST_CONF_DIR;
	struct collect_conf conf;
	unsigned long batch = 0, wait = 0;
	struct timespec pause = { 0, 200 * 1000 * 1000 };
	char shown[512], why[512], *end;
	double deadline;
	size_t sent = 0;
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "S:o:b:w:C:h", opts, NULL)) != -1) {
		switch (c) {
		case 'S': uri = optarg; break;
		case 'o': outbox = optarg; break;
		case 'C': conf_dir = optarg; break;
		case 'b':
		case 'w':
			errno = 0;
			*(c == 'b' ? &batch : &wait) = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || *optarg == '-' || (c == 'b' && !batch))
				return usage(c);
			break;
		case 'h':
		default:
			return usage(c);
		}
	}
	if (optind < argc)
		return usage(0);
	collect_conf_defaults(&conf);
	collect_conf_load(&conf, conf_dir);
	if (!uri)
		uri = conf.fleet_store;
	if (!outbox)
		outbox = conf.fleet_outbox;
	if (!*uri) {
		printf("gpurobust send: no fleet store (FleetStore= in %s/collect.conf, or "
		       "--store): nothing to send to\n", conf_dir);
		return GPUROBUST_EXIT_OK;
	}
	gpurobust_fleet_uri_redact(uri, shown, sizeof(shown));
	deadline = monotonic() + (double)wait;
	/* unreachable: again after 0.2 s, 0.4 s... at most 2 s apart */
	while (unreachable(r = send_outbox(uri, shown, outbox, batch, &sent, why, sizeof(why))) &&
	       monotonic() < deadline) {
		nanosleep(&pause, NULL);
		if (pause.tv_nsec < 1000 * 1000 * 1000 / 2)
			pause.tv_nsec *= 2;
		else
			pause = (struct timespec){ 2, 0 };
	}
	if (!r)
		printf("sent %zu crash%s to %s\n", sent, sent == 1 ? "" : "es", shown);
	if (unreachable(r)) {
		fprintf(stderr, "gpurobust send: %s: %s; sent %zu, the rest stay in %s\n", shown,
			why, sent, outbox);
		return GPUROBUST_EXIT_TEMPFAIL;
	}
	return r ? GPUROBUST_EXIT_FAILURE : GPUROBUST_EXIT_OK;
}
