// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/* B2: the tree as text and JSON, the baseline filter and signature, and our
 * grouping. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpurobust/breadcrumbs-json.h"
#include "gpurobust/breadcrumbs-signature.h"
#include "report-builder.h"

#define N GPUROBUST_BC_NOT_STARTED
#define A GPUROBUST_BC_IN_PROGRESS
#define F GPUROBUST_BC_FINISHED

/* The shape of RGD's README example, with numbers in names. */
static const struct outline frame[] = {
	{ 0, A, "Frame 268 CL0" },
	{ 1, F, "Depth + Normal + Motion Vector PrePass" },
	{ 1, F, "Shadow Cascade Pass" },
	{ 1, F, "Denoise shadows" },
	{ 1, F, "Skydome Proc" },
	{ 1, A, "DownSamplePS" },
	{ 2, F, "Draw 1" },
	{ 2, F, "Draw 2" },
	{ 2, A, "Draw 3" },
	{ 2, A, "Draw 4" },
	{ 2, N, "Draw 5" },
	{ 2, N, "Draw 6" },
	{ 1, A, "Bloom" },
	{ 2, A, "BlurPS" },
	{ 3, A, "CmdDraw" },
	{ 3, N, "CmdDraw" },
	{ 2, N, "CmdDraw" },
	{ 1, N, "Tonemap" },
	{ 1, N, "UI" },
};

static char *print_to_string(const struct gpurobust_bc_report *r, unsigned int flags)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(gpurobust_bc_report_print(r, f, flags), 0);
	fclose(f);
	return text;
}

static void B2_text_tree_rgd_style(void **state)
{
	const struct outline_stream s[] = { OUTLINE(GPUROBUST_BC_QUEUE_GFX, frame) };
	struct gpurobust_bc_report *r = build_report(s, 1, 0);
	char *text = print_to_string(r, 0);

	assert_non_null(strstr(text, "Stream ID: 0x1 (Queue type: gfx) <-- guilty\n"
				     "===========================================\n"));
	assert_non_null(strstr(text,
			       "[>] \"Frame 268 CL0\"\n"
			       " \u251c\u2500[X] \"Depth + Normal + Motion Vector PrePass\"\n"));
	/* Finished scopes stay collapsed, in-progress ones open, and the
	 * guides follow RGD's layout. */
	assert_non_null(strstr(text,
			       " \u251c\u2500[>] \"Bloom\"\n"
			       " \u2502  \u251c\u2500[>] \"BlurPS\"\n"
			       " \u2502  \u2502  \u251c\u2500[>] \"CmdDraw\"\n"
			       " \u2502  \u2502  \u2514\u2500[ ] \"CmdDraw\"\n"
			       " \u2502  \u2514\u2500[ ] \"CmdDraw\"\n"
			       " \u251c\u2500[ ] \"Tonemap\"\n"
			       " \u2514\u2500[ ] \"UI\"\n"));
	assert_non_null(strstr(text, "MARKERS IN PROGRESS\n===================\nStream ID: 0x1\n"
				     "Frame 268 CL0/DownSamplePS/Draw 3\n"
				     "Frame 268 CL0/DownSamplePS/Draw 4\n"
				     "Frame 268 CL0/Bloom/BlurPS/CmdDraw\n"));
	free(text);
	gpurobust_bc_report_free(r);
}

static void B2_text_marks_invalid_and_overflow(void **state)
{
	static const struct outline lines[] = {
		{ 0, GPUROBUST_BC_INVALID, "Frame" },
		{ 1, GPUROBUST_BC_OVERFLOW, "3 scopes dropped: stream overflow" },
	};
	struct outline_stream s[] = { OUTLINE(GPUROBUST_BC_QUEUE_COMPUTE, lines) };
	struct gpurobust_bc_report *r;
	char *text;

	s[0].invalid = true;
	r = build_report(s, 1, -1);
	text = print_to_string(r, 0);
	assert_non_null(strstr(text, "INVALID: test\n[!] \"Frame\"\n \u2514\u2500[+] 3 scopes dropped"));
	free(text);
	gpurobust_bc_report_free(r);
}

static void B2_json_round_trip(void **state)
{
	const struct outline_stream s[] = {
		OUTLINE(GPUROBUST_BC_QUEUE_GFX, frame), OUTLINE(GPUROBUST_BC_QUEUE_SDMA, frame),
	};
	struct gpurobust_bc_report *r = build_report(s, 2, 1), *back;
	char *json = gpurobust_bc_report_to_json(r);

	assert_non_null(json);
	assert_non_null(strstr(json, "\"execution_status\": \"not_started\""));
	assert_non_null(strstr(json, "\"execution_status\": \"in_progress\""));
	assert_non_null(strstr(json, "\"execution_status\": \"finished\""));
	assert_non_null(strstr(json, "\"execution_marker_tree\""));
	assert_int_equal(gpurobust_bc_report_from_json(json, strlen(json), &back), 0);
	assert_int_equal(back->guilty_stream, 1);
	assert_int_equal(back->stream_count, 2);
	assert_int_equal(back->streams[1].queue, GPUROBUST_BC_QUEUE_SDMA);
	for (uint32_t i = 0; i < r->streams[0].node_count; i++) {
		assert_string_equal(back->streams[0].nodes[i].name, r->streams[0].nodes[i].name);
		assert_int_equal(back->streams[0].nodes[i].state, r->streams[0].nodes[i].state);
		assert_int_equal(back->streams[0].nodes[i].parent, r->streams[0].nodes[i].parent);
	}
	free(json);
	gpurobust_bc_report_free(back);
	gpurobust_bc_report_free(r);
}

static void B2_json_rejects_garbage(void **state)
{
	static const char *bad[] = {
		"", "{", "[]", "{\"format\": \"other\", \"streams\": []}",
		"{\"format\": \"gpurobust-breadcrumbs-report\", \"streams\": [{\"tag\": -1}]}",
		"{\"format\": \"gpurobust-breadcrumbs-report\", \"streams\": [{\"tag\": 1, "
		"\"marker_in\": 0, \"marker_out\": 0, \"dropped\": 0, \"queue\": \"gfx\", "
		"\"execution_marker_tree\": [{\"name\": \"x\", \"execution_status\": \"busy\"}]}]}",
	};
	struct gpurobust_bc_report *r = (void *)1;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(gpurobust_bc_report_from_json(bad[i], strlen(bad[i]), &r), -EINVAL);
		assert_null(r);
	}
}

/*
 * The worked example of the published method on the tree above. Per level:
 * keep the last finished scope, every active one and the next not-started
 * one, and only descend into active scopes:
 *   root:            Frame (active)
 *   under Frame:     Skydome Proc (last finished), DownSamplePS and Bloom
 *                    (active), Tonemap (next not started; UI dropped)
 *   under DownSample: Draw 2 (last finished; Draw 1 dropped), Draw 3 and
 *                    Draw 4 (active), Draw 5 (next; Draw 6 dropped)
 *   under Bloom:     BlurPS (active), CmdDraw (next)
 *   under BlurPS:    CmdDraw (active), CmdDraw (next)
 * Numbers become "x" before hashing; the title is the deepest active scope.
 */
static void B2_unreal_filter_worked_example(void **state)
{
	const struct outline_stream s[] = { OUTLINE(GPUROBUST_BC_QUEUE_GFX, frame) };
	struct gpurobust_bc_report *r = build_report(s, 1, -1);
	struct gpurobust_bc_signature sig;
	char *dump = gpurobust_bc_unreal_dump(r);

	assert_string_equal(dump,
			    "Pipeline gfx:\n"
			    "[     Active]\tFrame 268 CL0\n"
			    "[   Finished]\t  Skydome Proc\n"
			    "[     Active]\t  DownSamplePS\n"
			    "[   Finished]\t    Draw 2\n"
			    "[     Active]\t    Draw 3\n"
			    "[     Active]\t    Draw 4\n"
			    "[Not Started]\t    Draw 5\n"
			    "[     Active]\t  Bloom\n"
			    "[     Active]\t    BlurPS\n"
			    "[     Active]\t      CmdDraw\n"
			    "[Not Started]\t      CmdDraw\n"
			    "[Not Started]\t    CmdDraw\n"
			    "[Not Started]\t  Tonemap\n");
	assert_int_equal(gpurobust_bc_unreal_signature(r, &sig), 0);
	assert_string_equal(sig.title, "CmdDraw");
	free(dump);
	gpurobust_bc_report_free(r);
}

static void B2_normalisation(void **state)
{
	char out[64];

	assert_int_equal(gpurobust_bc_normalize_numbers("Frame 1040 CL0", out, sizeof(out)), 11);
	assert_string_equal(out, "Frame x CLx");
	gpurobust_bc_normalize_numbers("Draw(VertexCount=3, InstanceCount=12)", out, sizeof(out));
	assert_string_equal(out, "Draw(VertexCount=x, InstanceCount=x)");
	/* Truncation keeps the terminator and still reports the full length. */
	assert_int_equal(gpurobust_bc_normalize_numbers("Frame 1040", out, 4), 7);
	assert_string_equal(out, "Fra");
}

/* Same tree, every number different: both signatures stay; another scope
 * name changes both. */
static void B2_signature_stable_across_numbers(void **state)
{
	static const struct outline other_numbers[] = {
		{ 0, A, "Frame 99731 CL2" },
		{ 1, F, "Depth + Normal + Motion Vector PrePass" },
		{ 1, F, "Shadow Cascade Pass" },
		{ 1, F, "Denoise shadows" },
		{ 1, F, "Skydome Proc" },
		{ 1, A, "DownSamplePS" },
		{ 2, F, "Draw 17" },
		{ 2, F, "Draw 18" },
		{ 2, A, "Draw 19" },
		{ 2, A, "Draw 20" },
		{ 2, N, "Draw 21" },
		{ 2, N, "Draw 22" },
		{ 1, A, "Bloom" },
		{ 2, A, "BlurPS" },
		{ 3, A, "CmdDraw" },
		{ 3, N, "CmdDraw" },
		{ 2, N, "CmdDraw" },
		{ 1, N, "Tonemap" },
		{ 1, N, "UI" },
	};
	static const struct outline other_name[] = {
		{ 0, A, "Frame 268 CL0" },
		{ 1, A, "Lighting" },
	};
	const struct outline_stream a[] = { OUTLINE(GPUROBUST_BC_QUEUE_GFX, frame) };
	const struct outline_stream b[] = { OUTLINE(GPUROBUST_BC_QUEUE_GFX, other_numbers) };
	const struct outline_stream c[] = { OUTLINE(GPUROBUST_BC_QUEUE_GFX, other_name) };
	struct gpurobust_bc_report *ra = build_report(a, 1, 0), *rb = build_report(b, 1, 0),
				   *rc = build_report(c, 1, 0);
	struct gpurobust_bc_signature ua, ub, uc, pa, pb, pc;

	assert_int_equal(gpurobust_bc_unreal_signature(ra, &ua), 0);
	assert_int_equal(gpurobust_bc_unreal_signature(rb, &ub), 0);
	assert_int_equal(gpurobust_bc_unreal_signature(rc, &uc), 0);
	assert_int_equal(gpurobust_bc_path_signature(ra, &pa), 0);
	assert_int_equal(gpurobust_bc_path_signature(rb, &pb), 0);
	assert_int_equal(gpurobust_bc_path_signature(rc, &pc), 0);
	assert_true(ua.hash == ub.hash);
	assert_true(pa.hash == pb.hash);
	assert_true(ua.hash != uc.hash);
	assert_true(pa.hash != pc.hash);
	/* Ours titles by the oldest unfinished work on the guilty queue. */
	assert_string_equal(pa.title, "Draw 3");
	assert_string_equal(pc.title, "Lighting");
	gpurobust_bc_report_free(ra);
	gpurobust_bc_report_free(rb);
	gpurobust_bc_report_free(rc);
}

/* One root cause, different work on the async compute queue and the command
 * processor a little further ahead: the baseline splits it, ours does not. */
static void B2_parallel_work_does_not_split(void **state)
{
	static const struct outline gfx_a[] = {
		{ 0, A, "Frame 1" }, { 1, F, "Shadows" }, { 1, A, "GBuffer" },
		{ 2, A, "Draw Terrain" }, { 2, N, "Draw Foliage" }, { 1, N, "Lighting" },
	};
	static const struct outline gfx_b[] = {
		{ 0, A, "Frame 2" }, { 1, F, "Shadows" }, { 1, A, "GBuffer" },
		{ 2, A, "Draw Terrain" }, { 2, A, "Draw Foliage" }, { 1, N, "Lighting" },
	};
	static const struct outline compute_a[] = { { 0, A, "Async Cull" } };
	static const struct outline compute_b[] = { { 0, F, "Async Cull" }, { 0, A, "Async SSAO" } };
	const struct outline_stream a[] = {
		OUTLINE(GPUROBUST_BC_QUEUE_GFX, gfx_a), OUTLINE(GPUROBUST_BC_QUEUE_COMPUTE, compute_a),
	};
	const struct outline_stream b[] = {
		OUTLINE(GPUROBUST_BC_QUEUE_GFX, gfx_b), OUTLINE(GPUROBUST_BC_QUEUE_COMPUTE, compute_b),
	};
	struct gpurobust_bc_report *r[2] = { build_report(a, 2, 0), build_report(b, 2, 0) };
	uint32_t cluster[2];
	size_t clusters;

	assert_int_equal(gpurobust_bc_group((const struct gpurobust_bc_report *const *)r, 2,
					    GPUROBUST_BC_GROUP_UNREAL, cluster, &clusters), 0);
	assert_int_equal(clusters, 2);
	assert_int_equal(gpurobust_bc_group((const struct gpurobust_bc_report *const *)r, 2,
					    GPUROBUST_BC_GROUP_PATH, cluster, &clusters), 0);
	assert_int_equal(clusters, 1);
	assert_int_equal(cluster[1], 0);
	gpurobust_bc_report_free(r[0]);
	gpurobust_bc_report_free(r[1]);
}

/* A stack cut by overflow joins the complete cluster it is a prefix of, and
 * the one whose secondary evidence is closer when two fit. */
static void B2_truncated_stack_joins(void **state)
{
	static const struct outline terrain[] = {
		{ 0, A, "Frame 1" }, { 1, F, "Shadows" }, { 1, A, "GBuffer" },
		{ 2, F, "Draw Sky" }, { 2, A, "Draw Terrain" }, { 2, N, "Draw Foliage" },
	};
	static const struct outline water[] = {
		{ 0, A, "Frame 1" }, { 1, F, "Lighting" }, { 1, A, "Water" },
		{ 2, A, "Waves" },
	};
	static const struct outline water_other[] = {
		{ 0, A, "Frame 1" }, { 1, F, "Shadows" }, { 1, A, "GBuffer" },
		{ 2, F, "Draw Terrain" }, { 2, A, "Draw Water" },
	};
	static const struct outline cut[] = {
		{ 0, A, "Frame 7" }, { 1, F, "Shadows" }, { 1, A, "GBuffer" },
		{ 2, GPUROBUST_BC_OVERFLOW, "12 scopes dropped: stream overflow" },
	};
	static const struct outline terrain_async[] = { { 0, A, "Async Terrain Cull" } };
	const struct outline_stream s0[] = {
		OUTLINE(GPUROBUST_BC_QUEUE_GFX, terrain),
		OUTLINE(GPUROBUST_BC_QUEUE_COMPUTE, terrain_async),
	};
	const struct outline_stream s1[] = { OUTLINE(GPUROBUST_BC_QUEUE_GFX, water) };
	const struct outline_stream s2[] = { OUTLINE(GPUROBUST_BC_QUEUE_GFX, water_other) };
	struct outline_stream s3[] = {
		OUTLINE(GPUROBUST_BC_QUEUE_GFX, cut),
		OUTLINE(GPUROBUST_BC_QUEUE_COMPUTE, terrain_async),
	};
	struct gpurobust_bc_report *r[5];
	uint32_t cluster[5];
	size_t clusters;

	s3[0].dropped = 12;
	r[0] = build_report(s0, 2, 0);
	r[1] = build_report(s1, 1, 0);
	r[2] = build_report(s2, 1, 0);
	r[3] = build_report(s0, 2, 0);
	r[4] = build_report(s3, 2, 0);
	assert_int_equal(gpurobust_bc_group((const struct gpurobust_bc_report *const *)r, 5,
					    GPUROBUST_BC_GROUP_PATH, cluster, &clusters), 0);
	assert_int_equal(clusters, 3);
	assert_int_equal(cluster[3], cluster[0]);
	/* "Frame/GBuffer" extends to both GBuffer clusters and the cut agrees
	 * with both (Shadows finished, GBuffer on the path); no counters tell
	 * them apart, so the compute queue's work, which only the terrain
	 * reports share, decides: Jaccard 1 against 0. */
	assert_int_equal(cluster[4], cluster[0]);
	for (int i = 0; i < 5; i++)
		gpurobust_bc_report_free(r[i]);
}

static const struct outline sky_hang[] = {
	{ 0, A, "Frame 1" }, { 1, F, "Shadows" }, { 1, A, "GBuffer" },
	{ 2, A, "Draw Sky" }, { 2, N, "Draw Terrain" }, { 2, N, "Draw Foliage" },
};
static const struct outline terrain_hang[] = {
	{ 0, A, "Frame 1" }, { 1, F, "Shadows" }, { 1, A, "GBuffer" },
	{ 2, F, "Draw Sky" }, { 2, A, "Draw Terrain" }, { 2, N, "Draw Foliage" },
};
static const struct outline foliage_hang[] = {
	{ 0, A, "Frame 1" }, { 1, F, "Shadows" }, { 1, A, "GBuffer" },
	{ 2, F, "Draw Sky" }, { 2, F, "Draw Terrain" }, { 2, A, "Draw Foliage" },
};
/* Recording stopped after "Draw Sky": the hang is later in GBuffer. */
static const struct outline cut_after_sky[] = {
	{ 0, A, "Frame 9" }, { 1, F, "Shadows" }, { 1, A, "GBuffer" }, { 2, F, "Draw Sky" },
	{ 2, GPUROBUST_BC_OVERFLOW, "40 scopes dropped: stream overflow" },
};

/* Three complete causes under GBuffer, two reports each, then the given
 * truncated reports; out[i] is the out counter of report i. */
static void group_cut(const struct outline_stream *cut, size_t cuts, const uint32_t *out,
		      uint32_t *cluster, size_t *clusters)
{
	const struct outline_stream causes[] = {
		OUTLINE(GPUROBUST_BC_QUEUE_GFX, sky_hang),
		OUTLINE(GPUROBUST_BC_QUEUE_GFX, terrain_hang),
		OUTLINE(GPUROBUST_BC_QUEUE_GFX, foliage_hang),
	};
	struct gpurobust_bc_report *r[8];
	size_t n = 0;

	assert_true(cuts <= 2);
	for (int rep = 0; rep < 2; rep++)
		for (int c = 0; c < 3; c++)
			r[n++] = build_report(&causes[c], 1, 0);
	for (size_t i = 0; i < cuts; i++)
		r[n++] = build_report(&cut[i], 1, 0);
	for (size_t i = 0; i < n; i++)
		r[i]->streams[0].marker_out = out[i];
	assert_int_equal(gpurobust_bc_group((const struct gpurobust_bc_report *const *)r, n,
					    GPUROBUST_BC_GROUP_PATH, cluster, clusters), 0);
	for (size_t i = 0; i < n; i++)
		gpurobust_bc_report_free(r[i]);
}

/* A cut report only joins causes that agree with everything it recorded,
 * whatever the counters say: "Draw Sky" finished in the second cut, which
 * rules out the hang in "Draw Sky" although its reports finished as many
 * scopes as terrain's; of the two left, only terrain's counter fits. The
 * overflow markers, which the complete reports lack, count for nothing. */
static void B2_cut_must_agree_with_its_cause(void **state)
{
	static const struct outline cut_at_sky[] = {
		{ 0, A, "Frame 9" }, { 1, F, "Shadows" }, { 1, A, "GBuffer" }, { 2, A, "Draw Sky" },
		{ 3, GPUROBUST_BC_OVERFLOW, "7 scopes dropped: stream overflow" },
	};
	struct outline_stream cut[2] = {
		OUTLINE(GPUROBUST_BC_QUEUE_GFX, cut_at_sky),
		OUTLINE(GPUROBUST_BC_QUEUE_GFX, cut_after_sky),
	};
	/* sky, terrain, foliage twice: 2, 2 and 4 scopes finished. */
	const uint32_t out[8] = { 2, 2, 4, 2, 2, 4, 2, 2 };
	uint32_t cluster[8];
	size_t clusters;

	cut[0].dropped = 7;
	cut[1].dropped = 40;
	group_cut(cut, 2, out, cluster, &clusters);
	assert_int_equal(clusters, 3);
	assert_int_equal(cluster[6], cluster[0]);
	assert_int_equal(cluster[7], cluster[1]);
}

/* When the cut lost the names that told two causes apart, the out counter
 * did not stop: the cause whose reports finished as much work as the cut
 * one, within their own spread, wins. Two cuts placed differently by it land
 * apart. */
static void B2_cut_placed_by_out_counter(void **state)
{
	struct outline_stream cut[2] = {
		OUTLINE(GPUROBUST_BC_QUEUE_GFX, cut_after_sky),
		OUTLINE(GPUROBUST_BC_QUEUE_GFX, cut_after_sky),
	};
	/* sky, terrain, foliage twice: 1, 2 and 3 scopes finished; the cuts
	 * finished 3 (foliage) and 2 (terrain). */
	const uint32_t out[8] = { 1, 2, 3, 1, 2, 3, 3, 2 };
	uint32_t cluster[8];
	size_t clusters;

	cut[0].dropped = cut[1].dropped = 40;
	group_cut(cut, 2, out, cluster, &clusters);
	assert_int_equal(clusters, 3);
	assert_int_equal(cluster[6], cluster[2]);
	assert_int_equal(cluster[7], cluster[1]);
}

/* A counter that fits no cause (terrain's reports finished 2 scopes each,
 * foliage's 4, the cut 3) leaves the cut on its own rather than merging two
 * causes; so do reports without counters. */
static void B2_cut_between_counters_stays_alone(void **state)
{
	struct outline_stream cut[1] = { OUTLINE(GPUROBUST_BC_QUEUE_GFX, cut_after_sky) };
	const uint32_t out[7] = { 1, 2, 4, 1, 2, 4, 3 };
	const uint32_t none[7] = { 0 };
	uint32_t cluster[7];
	size_t clusters;

	cut[0].dropped = 40;
	group_cut(cut, 1, out, cluster, &clusters);
	assert_int_equal(clusters, 4);
	assert_int_equal(cluster[6], 3);
	group_cut(cut, 1, none, cluster, &clusters);
	assert_int_equal(clusters, 4);
	assert_int_equal(cluster[6], 3);
}

/* Frames vary: terrain's reports finished 10 and 14 scopes (mean 12,
 * standard deviation 2), so a cut that finished 15 is one of them, within
 * 0.5 + 2 x 2 scopes; one that finished 17 is not. */
static void B2_cut_counter_within_spread(void **state)
{
	struct outline_stream cut[1] = { OUTLINE(GPUROBUST_BC_QUEUE_GFX, cut_after_sky) };
	uint32_t out[7] = { 1, 10, 30, 1, 14, 30, 15 };
	uint32_t cluster[7];
	size_t clusters;

	cut[0].dropped = 40;
	group_cut(cut, 1, out, cluster, &clusters);
	assert_int_equal(clusters, 3);
	assert_int_equal(cluster[6], cluster[1]);
	out[6] = 17;
	group_cut(cut, 1, out, cluster, &clusters);
	assert_int_equal(clusters, 4);
}

static void B2_group_bad_arguments(void **state)
{
	size_t clusters;
	const struct gpurobust_bc_report *none[1] = { NULL };
	uint32_t cluster[1];

	assert_int_equal(gpurobust_bc_group(none, 1, GPUROBUST_BC_GROUP_PATH, cluster, &clusters),
			 -EINVAL);
	assert_int_equal(gpurobust_bc_group(NULL, 0, GPUROBUST_BC_GROUP_PATH, NULL, &clusters), 0);
	assert_int_equal(clusters, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(B2_text_tree_rgd_style),
		cmocka_unit_test(B2_text_marks_invalid_and_overflow),
		cmocka_unit_test(B2_json_round_trip),
		cmocka_unit_test(B2_json_rejects_garbage),
		cmocka_unit_test(B2_unreal_filter_worked_example),
		cmocka_unit_test(B2_normalisation),
		cmocka_unit_test(B2_signature_stable_across_numbers),
		cmocka_unit_test(B2_parallel_work_does_not_split),
		cmocka_unit_test(B2_truncated_stack_joins),
		cmocka_unit_test(B2_cut_must_agree_with_its_cause),
		cmocka_unit_test(B2_cut_placed_by_out_counter),
		cmocka_unit_test(B2_cut_between_counters_stays_alone),
		cmocka_unit_test(B2_cut_counter_within_spread),
		cmocka_unit_test(B2_group_bad_arguments),
	};

	return cmocka_run_group_tests_name("B2 report", tests, NULL, NULL);
}
