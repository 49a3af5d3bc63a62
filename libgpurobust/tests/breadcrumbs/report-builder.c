// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "driver/core/breadcrumbs/internal.h"
#include "report-builder.h"

struct gpurobust_bc_report *build_report(const struct outline_stream *streams, uint32_t count,
					 int32_t guilty)
{
	struct gpurobust_bc_report *r = grb_bc_report_alloc(count);

	assert_non_null(r);
	r->guilty_stream = guilty;
	for (uint32_t s = 0; s < count; s++) {
		struct gpurobust_bc_stream_report *sr = &r->streams[s];
		uint32_t open[64];

		sr->tag = s + 1;
		sr->queue = streams[s].queue;
		sr->label = "";
		sr->valid = !streams[s].invalid;
		sr->invalid_reason = streams[s].invalid ? "test" : NULL;
		sr->dropped = streams[s].dropped;
		sr->node_count = streams[s].count;
		sr->nodes = calloc(streams[s].count + 1, sizeof(*sr->nodes));
		assert_non_null(sr->nodes);
		for (uint32_t i = 0; i < streams[s].count; i++) {
			const struct outline *l = &streams[s].lines[i];

			assert_true(l->depth < 64);
			sr->nodes[i].name = grb_bc_report_strdup(r, l->name);
			sr->nodes[i].state = l->state;
			sr->nodes[i].parent = l->depth ? open[l->depth - 1] : GPUROBUST_BC_NONE;
			open[l->depth] = i;
		}
		assert_int_equal(grb_bc_stream_link_tree(sr), 0);
	}
	return r;
}
