// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The report as text for a person and as JSON for a collector. Both print
 * the same facts in the same order: what happened, what the application
 * saw, what the GPU was doing, the signature, then provenance.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include <gpurobust/report.h>

#include "common/export.h"

static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

static const char *vk_name(VkResult r)
{
	return r == VK_SUCCESS ? "VK_SUCCESS" :
	       r == VK_ERROR_DEVICE_LOST ? "VK_ERROR_DEVICE_LOST" : "other";
}

/* GL values from the KHR_robustness spec, to keep this file free of GL
 * headers; mapping.c gets them from <GL/glext.h>. */
static const char *gl_name(unsigned int s)
{
	switch (s) {
	case 0: return "GL_NO_ERROR";
	case 0x8253: return "GL_GUILTY_CONTEXT_RESET";
	case 0x8254: return "GL_INNOCENT_CONTEXT_RESET";
	case 0x8255: return "GL_UNKNOWN_CONTEXT_RESET";
	}
	return "other";
}

static const char *severity_name(enum gpurobust_cd_severity s)
{
	return s == GPUROBUST_CD_ERROR ? "error" : s == GPUROBUST_CD_WARNING ? "warning" : "note";
}

GPUROBUST_EXPORT
int gpurobust_report_print(const struct gpurobust_report *r,
			   const struct gpurobust_coredump *dump, FILE *out)
{
	if (!r || !out)
		return -EINVAL;
	fprintf(out, "GPU hang: %s\n\n", r->title);
	fprintf(out, "What happened\n");
	fprintf(out, "  recovery     %s, %s\n", gpurobust_recovery_type_name(r->type),
		gpurobust_recovery_outcome_name(r->outcome));
	fprintf(out, "  ring         %s\n", r->ring[0] ? r->ring : "unknown");
	fprintf(out, "  guilty       %s (pid %d)", r->process[0] ? r->process : "unknown",
		r->pid);
	if (r->sources & GPUROBUST_REPORT_FROM_SERIES)
		fprintf(out, ", ctx %" PRIu64 ", job seqno %" PRIu64 "\n", r->guilty_ctx, r->seqno);
	else
		fprintf(out, "\n");
	if (r->sources & GPUROBUST_REPORT_FROM_SERIES) {
		fprintf(out, "  innocent     %zu context%s\n", r->n_innocents,
			r->n_innocents == 1 ? "" : "s");
		for (size_t i = 0; i < r->n_innocents; i++)
			fprintf(out, "               ctx %" PRIu64 " %s (pid %d)\n", r->innocents[i].ctx,
				r->innocents[i].process, r->innocents[i].pid);
	} else {
		fprintf(out, "  innocent     not recorded (kernel without the gpurobust series)\n");
	}
	fprintf(out, "  VRAM lost    %s\n", yes_no(r->vram_lost));
	if (r->fault)
		fprintf(out, "  VM fault     %s %s at 0x%016" PRIx64 ", status 0x%08x%s%s\n",
			r->fault_hub, r->fault_write ? "write" : "read", r->fault_addr,
			r->fault_status, r->fault_client[0] ? ", client " : "", r->fault_client);
	else
		fprintf(out, "  VM fault     none recorded\n");

	fprintf(out, "\nWhat the application saw\n");
	if (r->mapped) {
		fprintf(out, "  guilty       %s, %s (%s)\n", vk_name(r->guilty.vk_result),
			gl_name(r->guilty.gl_status), r->guilty.classification);
		fprintf(out, "  innocent     %s, %s (%s)\n", vk_name(r->innocent.vk_result),
			gl_name(r->innocent.gl_status), r->innocent.classification);
	} else {
		fprintf(out, "  unknown: the recovery type is not known\n");
	}

	fprintf(out, "\nWhat the GPU was doing\n");
	if (r->doing[0])
		fprintf(out, "  %s\n", r->doing);
	else if (dump && dump->features & GPUROBUST_CD_SERIES_CAPTURE)
		fprintf(out, "  no breadcrumb path decoded from %zu User Capture section%s\n",
			dump->n_captures, dump->n_captures == 1 ? "" : "s");
	else
		fprintf(out, "  no breadcrumbs (the process registered no capture buffer)\n");
	if (dump)
		for (size_t i = 0; i < dump->n_ibs; i++)
			fprintf(out, "  IB #%zu at 0x%" PRIx64 ", %u dwords%s\n", i,
				dump->ibs[i].gpu_addr, dump->ibs[i].size_dw,
				dump->ibs[i].has_contents ? "" : " (contents not captured)");

	fprintf(out, "\nSignature %016" PRIx64 "\n  %s\n", r->signature, r->signature_key);

	fprintf(out, "\nSource\n");
	if (r->sources & GPUROBUST_REPORT_FROM_DUMP)
		fprintf(out, "  devcoredump  kernel %s, printer %s, time %" PRId64 ".%09u%s\n",
			r->kernel[0] ? r->kernel : "unknown",
			gpurobust_cd_generation_name(r->generation), r->time_sec, r->time_nsec,
			r->truncated ? ", TRUNCATED" : "");
	if (r->sources & GPUROBUST_REPORT_FROM_DMESG)
		fprintf(out, "  kernel log   yes\n");
	if (dump)
		for (size_t i = 0; i < dump->n_diags; i++)
			fprintf(out, "  %s: line %zu: %s\n", severity_name(dump->diags[i].severity),
				dump->diags[i].line, dump->diags[i].message);
	return ferror(out) ? -EIO : 0;
}

static int add(json_object *o, const char *key, json_object *v)
{
	if (!v)
		return -ENOMEM;
	if (json_object_object_add(o, key, v)) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

static int add_str(json_object *o, const char *key, const char *s)
{
	return add(o, key, json_object_new_string(s));
}

static json_object *outcome_json(const struct gpurobust_report_outcome *oc)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (add_str(o, "vulkan", vk_name(oc->vk_result)) ||
	    add_str(o, "gl", gl_name(oc->gl_status)) ||
	    add_str(o, "classification", oc->classification)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static int fill_json(json_object *root, const struct gpurobust_report *r,
		     const struct gpurobust_coredump *dump)
{
	json_object *what = json_object_new_object(), *inn = json_object_new_array();
	json_object *saw = NULL, *src = NULL, *diags = NULL;
	char sig[17];
	int err = 0;

	if (add(root, "what_happened", what) || add(what, "innocent_contexts", inn))
		return -ENOMEM;
	snprintf(sig, sizeof(sig), "%016" PRIx64, r->signature);
	err |= add_str(root, "title", r->title);
	err |= add_str(root, "signature", sig);
	err |= add_str(root, "signature_key", r->signature_key);
	err |= add_str(what, "recovery", gpurobust_recovery_type_name(r->type));
	err |= add_str(what, "outcome", gpurobust_recovery_outcome_name(r->outcome));
	err |= add_str(what, "ring", r->ring);
	err |= add_str(what, "process", r->process);
	err |= add(what, "pid", json_object_new_int(r->pid));
	err |= add(what, "per_context", json_object_new_boolean(r->sources &
								GPUROBUST_REPORT_FROM_SERIES));
	err |= add(what, "guilty_ctx", json_object_new_uint64(r->guilty_ctx));
	err |= add(what, "seqno", json_object_new_uint64(r->seqno));
	err |= add(what, "vram_lost", json_object_new_boolean(r->vram_lost));
	for (size_t i = 0; i < r->n_innocents && !err; i++) {
		json_object *c = json_object_new_object();

		if (!c || json_object_array_add(inn, c))
			return -ENOMEM;
		err |= add(c, "ctx", json_object_new_uint64(r->innocents[i].ctx));
		err |= add_str(c, "process", r->innocents[i].process);
		err |= add(c, "pid", json_object_new_int(r->innocents[i].pid));
	}
	if (r->fault) {
		json_object *f = json_object_new_object();
		char addr[19];

		snprintf(addr, sizeof(addr), "0x%016" PRIx64, r->fault_addr);
		err |= add(what, "vm_fault", f);
		if (err)
			return -ENOMEM;
		err |= add_str(f, "hub", r->fault_hub);
		err |= add_str(f, "address", addr);
		err |= add(f, "status", json_object_new_int64(r->fault_status));
		err |= add_str(f, "access", r->fault_write ? "write" : "read");
		err |= add_str(f, "client", r->fault_client);
	} else {
		/* JSON null: no fault recorded */
		err |= json_object_object_add(what, "vm_fault", NULL) ? -ENOMEM : 0;
	}

	if (r->mapped) {
		saw = json_object_new_object();
		err |= add(root, "application_saw", saw);
		if (err)
			return -ENOMEM;
		err |= add(saw, "guilty", outcome_json(&r->guilty));
		err |= add(saw, "innocent", outcome_json(&r->innocent));
	} else {
		/* JSON null: the recovery type, and so the outcome, is unknown */
		err |= json_object_object_add(root, "application_saw", NULL) ? -ENOMEM : 0;
	}
	err |= add_str(root, "gpu_was_doing", r->doing);

	src = json_object_new_object();
	err |= add(root, "source", src);
	if (err)
		return -ENOMEM;
	err |= add(src, "devcoredump", json_object_new_boolean(r->sources &
							       GPUROBUST_REPORT_FROM_DUMP));
	err |= add(src, "kernel_log", json_object_new_boolean(r->sources &
							      GPUROBUST_REPORT_FROM_DMESG));
	err |= add_str(src, "kernel", r->kernel);
	err |= add_str(src, "printer", gpurobust_cd_generation_name(r->generation));
	err |= add(src, "time_sec", json_object_new_int64(r->time_sec));
	err |= add(src, "time_nsec", json_object_new_int64(r->time_nsec));
	err |= add(src, "truncated", json_object_new_boolean(r->truncated));
	diags = json_object_new_array();
	err |= add(src, "diagnostics", diags);
	for (size_t i = 0; dump && i < dump->n_diags && !err; i++) {
		json_object *g = json_object_new_object();

		if (!g || json_object_array_add(diags, g))
			return -ENOMEM;
		err |= add_str(g, "severity", severity_name(dump->diags[i].severity));
		err |= add(g, "line", json_object_new_int64((int64_t)dump->diags[i].line));
		err |= add_str(g, "message", dump->diags[i].message);
	}
	return err ? -ENOMEM : 0;
}

GPUROBUST_EXPORT
char *gpurobust_report_to_json(const struct gpurobust_report *r,
			       const struct gpurobust_coredump *dump)
{
	json_object *root;
	char *text = NULL;

	if (!r)
		return NULL;
	root = json_object_new_object();
	if (root && !fill_json(root, r, dump))
		text = strdup(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							     JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	return text;
}
