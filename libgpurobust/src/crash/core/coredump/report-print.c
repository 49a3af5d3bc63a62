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

/* Untrusted text (names, rings, titles built from them), made inert. */
struct esc {
	char s[4 * 256 + 1];
};

static const char *esc(struct esc *e, const char *text)
{
	gpurobust_text_escape(e->s, sizeof(e->s), text);
	return e->s;
}

static void print_bits(FILE *out, const struct gpurobust_fault_bits *b)
{
	if (b->layout == GPUROBUST_FAULT_LAYOUT_GFX9)
		fprintf(out, " (MORE_FAULTS %u, WALKER_ERROR %u, PERMISSION_FAULTS %u, "
			"MAPPING_ERROR %u, CID 0x%x, RW %u, VMID %u)", b->more_faults,
			b->walker_error, b->permission_faults, b->mapping_error, b->client_id,
			b->rw, b->vmid);
	else if (b->layout == GPUROBUST_FAULT_LAYOUT_GCN)
		fprintf(out, " (PROTECTIONS 0x%02x, MEMORY_CLIENT_ID %u, RW %u, VMID %u)",
			b->permission_faults, b->client_id, b->rw, b->vmid);
}

/* "ring gfx_0.0.0 on 0000:03:00.0, process X (pid N) thread Y (pid M)" */
static void print_hang_line(FILE *out, const struct gpurobust_report_hang *h)
{
	struct esc a, b;

	fprintf(out, "ring %s", h->ring[0] ? esc(&a, h->ring) : "unknown");
	if (h->device[0])
		fprintf(out, " on %s", esc(&a, h->device));
	if (h->has_process)
		fprintf(out, ", process %s (pid %d)", h->process[0] ? esc(&a, h->process) : "\"\"",
			h->pid);
	if (h->thread[0] || h->has_tid) {
		fprintf(out, " thread %s", h->thread[0] ? esc(&b, h->thread) : "\"\"");
		if (h->has_tid)
			fprintf(out, " (pid %d)", h->tid);
	}
	fprintf(out, ", %s, %s%s", gpurobust_recovery_type_name(h->type),
		gpurobust_recovery_outcome_name(h->outcome), h->vram_lost ? ", VRAM lost" : "");
}

static void print_fault_line(FILE *out, const struct gpurobust_report_fault *f)
{
	struct esc a;

	fprintf(out, "%s %s", f->hub[0] ? esc(&a, f->hub) : "gpuvm", f->write ? "write" : "read");
	if (f->has_addr)
		fprintf(out, " at 0x%016" PRIx64, f->addr);
	if (f->has_status) {
		fprintf(out, ", status 0x%08x", f->status);
		print_bits(out, &f->bits);
	}
	if (f->client[0])
		fprintf(out, ", client %s", esc(&a, f->client));
	if (f->has_process)
		fprintf(out, ", process %s (pid %d)", f->process[0] ? esc(&a, f->process) : "\"\"",
			f->pid);
	if (f->thread[0] || f->has_tid)
		fprintf(out, " thread %s", f->thread[0] ? esc(&a, f->thread) : "\"\"");
	if (f->has_tid)
		fprintf(out, " (pid %d)", f->tid);
	if (f->device[0])
		fprintf(out, " on %s", esc(&a, f->device));
}

static const char *order_word(size_t i, size_t headline)
{
	return i == headline ? "headline" : i < headline ? "before it" : "following";
}

static void print_diags(FILE *out, const char *what, const struct gpurobust_cd_diag *d, size_t n)
{
	struct esc e;

	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %s: %s line %zu: %s\n", severity_name(d[i].severity), what,
			d[i].line, esc(&e, d[i].message));
}

GPUROBUST_EXPORT
int gpurobust_report_print(const struct gpurobust_report *r,
			   const struct gpurobust_coredump *dump, FILE *out)
{
	struct esc e, e2;

	if (!r || !out)
		return -EINVAL;
	fprintf(out, "GPU %s: %s\n\n", r->n_hangs || !r->fault ? "hang" : "fault",
		esc(&e, r->title));
	fprintf(out, "What happened\n");
	fprintf(out, "  recovery     %s, %s\n", gpurobust_recovery_type_name(r->type),
		gpurobust_recovery_outcome_name(r->outcome));
	fprintf(out, "  ring         %s\n", r->ring[0] ? esc(&e, r->ring) : "unknown");
	if (r->n_hangs && r->hangs[r->headline].device[0])
		fprintf(out, "  device       %s\n", esc(&e, r->hangs[r->headline].device));
	fprintf(out, "  guilty       %s (pid %d)", r->process[0] ? esc(&e, r->process) : "unknown",
		r->pid);
	if (r->n_hangs && r->hangs[r->headline].thread[0])
		fprintf(out, ", thread %s", esc(&e2, r->hangs[r->headline].thread));
	if (r->sources & GPUROBUST_REPORT_FROM_SERIES)
		fprintf(out, ", ctx %" PRIu64 ", job seqno %" PRIu64 "\n", r->guilty_ctx, r->seqno);
	else
		fprintf(out, "\n");
	if (r->sources & GPUROBUST_REPORT_FROM_SERIES) {
		fprintf(out, "  innocent     %zu context%s\n", r->n_innocents,
			r->n_innocents == 1 ? "" : "s");
		for (size_t i = 0; i < r->n_innocents; i++)
			fprintf(out, "               ctx %" PRIu64 " %s (pid %d)\n", r->innocents[i].ctx,
				esc(&e, r->innocents[i].process), r->innocents[i].pid);
	} else {
		fprintf(out, "  innocent     not recorded (kernel without the gpurobust series)\n");
	}
	fprintf(out, "  VRAM lost    %s\n", yes_no(r->vram_lost));
	if (r->fault) {
		fprintf(out, "  VM fault     ");
		print_fault_line(out, &r->faults[r->headline_fault]);
		fprintf(out, "\n");
	} else {
		fprintf(out, "  VM fault     none recorded\n");
	}
	if (r->n_hangs > 1) {
		fprintf(out, "  hangs        %zu, in order:\n", r->n_hangs);
		for (size_t i = 0; i < r->n_hangs; i++) {
			fprintf(out, "    %zu (%s): ", i + 1, order_word(i, r->headline));
			print_hang_line(out, &r->hangs[i]);
			fprintf(out, "\n");
		}
	}
	if (r->n_faults > 1) {
		fprintf(out, "  faults       %zu, in order:\n", r->n_faults);
		for (size_t i = 0; i < r->n_faults; i++) {
			fprintf(out, "    %zu (%s): ", i + 1, order_word(i, r->headline_fault));
			print_fault_line(out, &r->faults[i]);
			fprintf(out, "\n");
		}
	}

	fprintf(out, "\nWhat the application saw\n");
	if (r->mapped) {
		fprintf(out, "  guilty       %s, %s (%s)\n", vk_name(r->guilty.vk_result),
			gl_name(r->guilty.gl_status), r->guilty.classification);
		fprintf(out, "  innocent     %s, %s (%s)\n", vk_name(r->innocent.vk_result),
			gl_name(r->innocent.gl_status), r->innocent.classification);
	} else if (r->type == GPUROBUST_RECOVERY_NONE) {
		/* Reset v1's "type: none": the kernel did not try (gpu_recovery=0) */
		fprintf(out, "  unknown: no recovery was attempted\n");
	} else {
		fprintf(out, "  unknown: the recovery type is not known\n");
	}

	fprintf(out, "\nWhat the GPU was doing\n");
	if (r->doing[0])
		fprintf(out, "  %s\n", esc(&e, r->doing));
	else if (dump && dump->features & GPUROBUST_CD_SERIES_CAPTURE)
		fprintf(out, "  no breadcrumb path decoded from %zu User Capture section%s\n",
			dump->n_captures, dump->n_captures == 1 ? "" : "s");
	else
		fprintf(out, "  no breadcrumbs (the process mapped no dumpable buffer)\n");
	if (dump && gpurobust_coredump_hung_ring(dump)) {
		const struct gpurobust_cd_ring *ring = gpurobust_coredump_hung_ring(dump);

		fprintf(out, "  ring %s at hang time: rptr 0x%" PRIx64 ", wptr 0x%" PRIx64
			", %u dwords\n", esc(&e, ring->name), ring->rptr, ring->wptr, ring->size_dw);
	}
	if (dump)
		for (size_t i = 0; i < dump->n_ibs; i++)
			fprintf(out, "  IB #%zu at 0x%" PRIx64 ", %u dwords%s\n", i,
				dump->ibs[i].gpu_addr, dump->ibs[i].size_dw,
				dump->ibs[i].has_contents ? "" : " (contents not captured)");

	fprintf(out, "\nSignature %016" PRIx64 "\n  %s\n", r->signature, esc(&e, r->signature_key));

	fprintf(out, "\nSource\n");
	if (r->sources & GPUROBUST_REPORT_FROM_DUMP)
		fprintf(out, "  devcoredump  kernel %s, printer %s, time %" PRId64 ".%09u%s%s\n",
			r->kernel[0] ? esc(&e, r->kernel) : "unknown",
			gpurobust_cd_generation_name(r->generation), r->time_sec, r->time_nsec,
			r->truncated ? ", TRUNCATED" : "",
			r->partial ? ", PARTIAL (no header)" : "");
	if (r->sources & GPUROBUST_REPORT_FROM_DMESG)
		fprintf(out, "  kernel log   yes\n");
	if (dump)
		print_diags(out, "dump", dump->diags, dump->n_diags);
	print_diags(out, "log", r->log_diags, r->n_log_diags);
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

/* Every string a report holds may come from the hung process or a pasted
 * log: escaped like the text output, and so valid UTF-8. */
static int add_str(json_object *o, const char *key, const char *s)
{
	struct esc e;

	return add(o, key, json_object_new_string(esc(&e, s)));
}

/* A string the input may not have given: null then. */
static int add_opt_str(json_object *o, const char *key, bool has, const char *s)
{
	return has ? add_str(o, key, s) : (json_object_object_add(o, key, NULL) ? -ENOMEM : 0);
}

static int add_opt_int(json_object *o, const char *key, bool has, int64_t v)
{
	return has ? add(o, key, json_object_new_int64(v)) :
		     (json_object_object_add(o, key, NULL) ? -ENOMEM : 0);
}

static json_object *hang_json(const struct gpurobust_report *r, size_t i)
{
	const struct gpurobust_report_hang *h = &r->hangs[i];
	json_object *o = json_object_new_object();
	int err = 0;

	if (!o)
		return NULL;
	err |= add_str(o, "order", order_word(i, r->headline));
	err |= add(o, "following", json_object_new_boolean(i > r->headline));
	err |= add_opt_int(o, "line", h->line, (int64_t)h->line);
	err |= add_opt_str(o, "device", h->device[0], h->device);
	err |= add_opt_str(o, "ring", h->ring[0], h->ring);
	err |= add_opt_str(o, "process", h->has_process, h->process);
	err |= add_opt_int(o, "pid", h->has_process, h->pid);
	err |= add_opt_str(o, "thread", h->thread[0] || h->has_tid, h->thread);
	err |= add_opt_int(o, "tid", h->has_tid, h->tid);
	err |= add_str(o, "recovery", gpurobust_recovery_type_name(h->type));
	err |= add_str(o, "outcome", gpurobust_recovery_outcome_name(h->outcome));
	err |= add(o, "vram_lost", json_object_new_boolean(h->vram_lost));
	err |= add(o, "from_devcoredump", json_object_new_boolean(h->sources &
								  GPUROBUST_REPORT_FROM_DUMP));
	if (err) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static json_object *bits_json(const struct gpurobust_fault_bits *b)
{
	json_object *o = json_object_new_object();
	int err = 0;

	if (!o)
		return NULL;
	err |= add_str(o, "layout", b->layout == GPUROBUST_FAULT_LAYOUT_GCN ? "gcn" : "gfx9");
	if (b->layout == GPUROBUST_FAULT_LAYOUT_GFX9) {
		err |= add(o, "more_faults", json_object_new_int64(b->more_faults));
		err |= add(o, "walker_error", json_object_new_int64(b->walker_error));
		err |= add(o, "permission_faults", json_object_new_int64(b->permission_faults));
		err |= add(o, "mapping_error", json_object_new_int64(b->mapping_error));
	} else {
		err |= add(o, "protections", json_object_new_int64(b->permission_faults));
	}
	err |= add(o, "client_id", json_object_new_int64(b->client_id));
	err |= add(o, "rw", json_object_new_int64(b->rw));
	err |= add(o, "vmid", json_object_new_int64(b->vmid));
	if (err) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static json_object *fault_json(const struct gpurobust_report *r, size_t i)
{
	const struct gpurobust_report_fault *f = &r->faults[i];
	json_object *o = json_object_new_object();
	char addr[19], status[11];
	int err = 0;

	if (!o)
		return NULL;
	snprintf(addr, sizeof(addr), "0x%016" PRIx64, f->addr);
	snprintf(status, sizeof(status), "0x%08x", f->status);
	err |= add_str(o, "order", order_word(i, r->headline_fault));
	err |= add(o, "following", json_object_new_boolean(i > r->headline_fault));
	err |= add_opt_int(o, "line", f->line, (int64_t)f->line);
	err |= add_opt_str(o, "device", f->device[0], f->device);
	err |= add_opt_str(o, "hub", f->hub[0], f->hub);
	err |= add_opt_str(o, "address", f->has_addr, addr);
	err |= add_opt_str(o, "status", f->has_status, status);
	err |= add_opt_str(o, "client", f->client[0], f->client);
	err |= add_opt_str(o, "process", f->has_process, f->process);
	err |= add_opt_int(o, "pid", f->has_process, f->pid);
	err |= add_opt_str(o, "thread", f->thread[0] || f->has_tid, f->thread);
	err |= add_opt_int(o, "tid", f->has_tid, f->tid);
	err |= add_str(o, "access", f->write ? "write" : "read");
	if (f->has_status && f->bits.layout)
		err |= add(o, "decoded", bits_json(&f->bits));
	else
		err |= json_object_object_add(o, "decoded", NULL) ? -ENOMEM : 0;
	if (err) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static int add_element(json_object *arr, json_object *v)
{
	if (!v || json_object_array_add(arr, v)) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

static int add_diags(json_object *arr, const char *from, const struct gpurobust_cd_diag *d,
		     size_t n)
{
	int err = 0;

	for (size_t i = 0; i < n && !err; i++) {
		json_object *g = json_object_new_object();

		if (!g || json_object_array_add(arr, g)) {
			json_object_put(g);
			return -ENOMEM;
		}
		err |= add_str(g, "from", from);
		err |= add_str(g, "severity", severity_name(d[i].severity));
		err |= add(g, "line", json_object_new_int64((int64_t)d[i].line));
		err |= add_str(g, "message", d[i].message);
	}
	return err;
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
	json_object *saw = NULL, *src = NULL, *diags = NULL, *list;
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
	err |= add(src, "partial", json_object_new_boolean(r->partial));
	err |= add_opt_int(src, "family", r->family, r->family);
	diags = json_object_new_array();
	err |= add(src, "diagnostics", diags);
	if (!err && dump)
		err |= add_diags(diags, "devcoredump", dump->diags, dump->n_diags);
	if (!err)
		err |= add_diags(diags, "kernel_log", r->log_diags, r->n_log_diags);
	list = json_object_new_array();
	err |= add(root, "hangs", list);
	for (size_t i = 0; i < r->n_hangs && !err; i++)
		err |= add_element(list, hang_json(r, i));
	list = json_object_new_array();
	err |= add(root, "faults", list);
	for (size_t i = 0; i < r->n_faults && !err; i++)
		err |= add_element(list, fault_json(r, i));
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
