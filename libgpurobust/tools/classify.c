// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * gpurobust classify: feed evidence to one context, step by step, and show
 * what the library concludes and what Vulkan and GL would report. A
 * walkthrough of contract rows L1-L13 without a GPU.
 */
#include <errno.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common/amdgpu-uapi.h"
#include "gpurobust/reset-gl.h"
#include "gpurobust/reset-vulkan.h"
#include "gpurobust/reset.h"

struct errno_name {
	int err;
	const char *name;
};

/* The errnos the reset contract talks about, by name. */
static const struct errno_name errno_names[] = {
	{ ENODATA, "ENODATA" }, { ETIME, "ETIME" }, { ECANCELED, "ECANCELED" },
	{ ENODEV, "ENODEV" }, { EHWPOISON, "EHWPOISON" }, { ENOMEM, "ENOMEM" },
	{ EINVAL, "EINVAL" }, { EAGAIN, "EAGAIN" }, { GPUROBUST_ERESTARTSYS, "ERESTARTSYS" },
	{ ESRCH, "ESRCH" }, { EINTR, "EINTR" }, { ENOENT, "ENOENT" }, { EIO, "EIO" },
};

static const char *const query1_names[] = {
	[AMDGPU_CTX_NO_RESET] = "NO_RESET",
	[AMDGPU_CTX_GUILTY_RESET] = "GUILTY_RESET",
	[AMDGPU_CTX_INNOCENT_RESET] = "INNOCENT_RESET",
	[AMDGPU_CTX_UNKNOWN_RESET] = "UNKNOWN_RESET",
};

static int parse_errno(const char *text, int *err)
{
	char *end;
	long value;

	if (*text == '-')
		text++;
	for (size_t i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]); i++) {
		if (!strcmp(text, errno_names[i].name)) {
			*err = -errno_names[i].err;
			return 0;
		}
	}
	errno = 0;
	value = strtol(text, &end, 0);
	if (errno || *end || end == text || value < 0 || value > 4095)
		return -EINVAL;
	*err = (int)-value;
	return 0;
}

/* "RESET|GUILTY" or a number. */
static int parse_query2(const char *text, uint64_t *flags)
{
	char *copy, *save = NULL, *end;

	*flags = 0;
	errno = 0;
	*flags = strtoull(text, &end, 0);
	if (!errno && end != text && !*end)
		return 0;
	*flags = 0;
	copy = strdup(text);
	if (!copy)
		return -ENOMEM;
	for (char *tok = strtok_r(copy, "|", &save); tok; tok = strtok_r(NULL, "|", &save)) {
		const struct grb_query2_flag_name *f = grb_query2_flag_names;

		while (f->name && strcmp(f->name, tok))
			f++;
		if (!f->name) {
			free(copy);
			return -EINVAL;
		}
		*flags |= f->flag;
	}
	free(copy);
	return 0;
}

static int parse_query1(const char *text, uint32_t *status)
{
	for (uint32_t i = 0; i < sizeof(query1_names) / sizeof(query1_names[0]); i++) {
		if (!strcmp(text, query1_names[i])) {
			*status = i;
			return 0;
		}
	}
	return -EINVAL;
}

/* errno:-ENODATA (or just -ENODATA), query2:RESET|GUILTY, query1:GUILTY_RESET */
static int parse_evidence(const char *arg, struct gpurobust_evidence *ev)
{
	if (!strncmp(arg, "query2:", 7)) {
		ev->kind = GPUROBUST_EVIDENCE_QUERY2;
		return parse_query2(arg + 7, &ev->query2_flags);
	}
	if (!strncmp(arg, "query1:", 7)) {
		ev->kind = GPUROBUST_EVIDENCE_QUERY1;
		return parse_query1(arg + 7, &ev->query1_status);
	}
	if (!strncmp(arg, "errno:", 6))
		arg += 6;
	ev->kind = GPUROBUST_EVIDENCE_ERRNO;
	return parse_errno(arg, &ev->err);
}

static const char *gl_name(unsigned int status)
{
	switch (status) {
	case GL_GUILTY_CONTEXT_RESET:
		return "GL_GUILTY_CONTEXT_RESET";
	case GL_INNOCENT_CONTEXT_RESET:
		return "GL_INNOCENT_CONTEXT_RESET";
	case GL_UNKNOWN_CONTEXT_RESET:
		return "GL_UNKNOWN_CONTEXT_RESET";
	default:
		return "GL_NO_ERROR";
	}
}

static void print_flags(uint32_t flags)
{
	printf("%s%s%s%s", flags & GPUROBUST_RESET_FLAG_VRAM_LOST ? " vram_lost" : "",
	       flags & GPUROBUST_RESET_FLAG_IN_PROGRESS ? " reset_in_progress" : "",
	       flags & GPUROBUST_RESET_FLAG_ELSEWHERE ? " reset_elsewhere" : "",
	       flags ? "" : " -");
}

static void on_lost(struct gpurobust_ctx *ctx, const struct gpurobust_reset_status *status,
		    void *user_data)
{
	printf("  L13: the context is not robust and is now lost (%s); the default "
	       "policy would terminate the process here\n",
	       gpurobust_reset_class_name(status->reset_class));
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: gpurobust classify [--per-ctx] [--non-robust] EVIDENCE...\n"
		"  EVIDENCE: -ENODATA | errno:-62 | query2:RESET|GUILTY | query2:0x5 |\n"
		"            query1:NO_RESET|GUILTY_RESET|INNOCENT_RESET|UNKNOWN_RESET\n");
}

int cmd_classify(int argc, char **argv)
{
	enum gpurobust_semantics semantics = GPUROBUST_SEMANTICS_LEGACY;
	uint32_t flags = GPUROBUST_CTX_ROBUST;
	struct gpurobust_ctx *ctx;
	int first = 1, r;

	/* Options come first; getopt would take evidence like -ENODATA for
	 * options, so they are matched by hand. */
	while (first < argc && !strncmp(argv[first], "--", 2)) {
		const char *opt = argv[first++];

		if (!strcmp(opt, "--per-ctx")) {
			semantics = GPUROBUST_SEMANTICS_PER_CTX;
		} else if (!strcmp(opt, "--non-robust")) {
			flags = 0;
		} else if (!strcmp(opt, "--help")) {
			usage(stdout);
			return GPUROBUST_EXIT_OK;
		} else if (!strcmp(opt, "--")) {
			break;
		} else {
			fprintf(stderr, "gpurobust classify: unknown option '%s'\n", opt);
			usage(stderr);
			return GPUROBUST_EXIT_USAGE;
		}
	}
	if (first == argc) {
		usage(stderr);
		return GPUROBUST_EXIT_USAGE;
	}
	r = gpurobust_ctx_create(semantics, flags, &ctx);
	if (r) {
		fprintf(stderr, "gpurobust classify: gpurobust_ctx_create failed: %s\n",
			strerror(-r));
		return GPUROBUST_EXIT_FAILURE;
	}
	gpurobust_ctx_set_lost_handler(ctx, on_lost, NULL);
	printf("context: %s semantics, %s\n", gpurobust_semantics_name(semantics),
	       flags ? "robust" : "not robust (NO_RESET_NOTIFICATION)");

	for (int i = first; i < argc; i++) {
		struct gpurobust_evidence ev;
		struct gpurobust_reset_status st;

		if (parse_evidence(argv[i], &ev)) {
			fprintf(stderr, "gpurobust classify: cannot parse evidence '%s'\n", argv[i]);
			usage(stderr);
			gpurobust_ctx_destroy(ctx);
			return GPUROBUST_EXIT_USAGE;
		}
		gpurobust_ctx_update(ctx, &ev);
		gpurobust_ctx_get_status(ctx, &st);
		printf("%-28s -> %-11s flags:", argv[i], gpurobust_reset_class_name(st.reset_class));
		print_flags(st.flags);
		printf("  vk: %s  gl: %s\n",
		       gpurobust_ctx_vk_result(ctx) == VK_SUCCESS ? "VK_SUCCESS"
								  : "VK_ERROR_DEVICE_LOST",
		       gl_name(gpurobust_ctx_gl_reset_status(ctx)));
	}
	gpurobust_ctx_destroy(ctx);
	return GPUROBUST_EXIT_OK;
}
