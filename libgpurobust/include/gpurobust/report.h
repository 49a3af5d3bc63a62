/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/**
 * DOC: crash reports
 *
 * A report answers three questions about one GPU hang, from whatever
 * evidence there is: the devcoredump, the kernel log lines, and (when the
 * process registered a capture buffer, D3) its breadcrumbs.
 *
 * - What happened: recovery type and outcome, ring, process, guilty or
 *   innocent contexts, VRAM lost, the VM fault address and client.
 * - What the application saw: the Vulkan and GL result the library core maps
 *   the hang to (contract rows L1 to L11).
 * - Which bucket it belongs to: a signature that is equal for hangs with the
 *   same cause, so a collector can group thousands of them.
 *
 * Building a report is pure; printing writes to a FILE or returns JSON.
 */
#ifndef GPUROBUST_REPORT_H
#define GPUROBUST_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <vulkan/vulkan_core.h>

#include "coredump.h"
#include "text.h"
#include "vm-fault.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a report's facts came from, as bits of gpurobust_report.sources. */
#define GPUROBUST_REPORT_FROM_DUMP	(1u << 0)
#define GPUROBUST_REPORT_FROM_DMESG	(1u << 1)
#define GPUROBUST_REPORT_FROM_SERIES	(1u << 2)	/* the dump has D1 data */

/* The role a context or process played in the hang. */
enum gpurobust_role {
	GPUROBUST_ROLE_UNKNOWN = 0,
	GPUROBUST_ROLE_GUILTY,
	GPUROBUST_ROLE_INNOCENT,
};

/* What the library core tells an application in this role (L9, L11). */
struct gpurobust_report_outcome {
	VkResult vk_result;		/* VK_SUCCESS or VK_ERROR_DEVICE_LOST */
	unsigned int gl_status;		/* GL_*_CONTEXT_RESET or GL_NO_ERROR */
	const char *classification;	/* gpurobust_reset_class_name() */
};

/* One hang of the report. The dump's hang is merged into the log's hang on
 * the same ring (the last one, since the dump is written at the hang). */
struct gpurobust_report_hang {
	unsigned int sources;		/* GPUROBUST_REPORT_FROM_DUMP and/or _DMESG */
	size_t line;			/* the log line that opened it; 0 from a dump */
	char device[GPUROBUST_NAME_MAX];	/* PCI address or drmnN; "" unknown */
	char ring[GPUROBUST_NAME_MAX];
	bool has_process, has_tid;	/* a name may be empty while the pid is real */
	char process[GPUROBUST_NAME_MAX], thread[GPUROBUST_NAME_MAX];
	int32_t pid, tid;
	enum gpurobust_recovery_type type;
	enum gpurobust_recovery_outcome outcome;
	bool vram_lost;
};

/* One VM fault of the report, with its status register decoded where the
 * layout is known (bits.layout != UNKNOWN). */
struct gpurobust_report_fault {
	unsigned int sources;
	size_t line;
	char device[GPUROBUST_NAME_MAX];
	char hub[16];
	bool has_addr, has_status, has_process;
	uint64_t addr;
	uint32_t status;
	struct gpurobust_fault_bits bits;
	char client[GPUROBUST_NAME_MAX];
	char process[GPUROBUST_NAME_MAX];
	int32_t pid;
	bool has_tid;			/* a thread name may be empty while its pid is real */
	char thread[GPUROBUST_NAME_MAX];
	int32_t tid;
	bool write;
};

struct gpurobust_report {
	unsigned int sources;		/* GPUROBUST_REPORT_FROM_* */

	/* What happened. */
	enum gpurobust_recovery_type type;
	enum gpurobust_recovery_outcome outcome;
	char ring[32];
	char process[32];		/* the guilty job's process */
	int32_t pid;
	/* With the series (D1): the guilty context and its job; 0 otherwise. */
	uint64_t guilty_ctx;
	uint64_t seqno;
	/* With the series: every affected innocent context. Before it, the
	 * kernel records none (contract, "What Linux 6.12.117 does" row 9). */
	struct gpurobust_cd_innocent *innocents;
	size_t n_innocents;
	bool vram_lost;

	bool fault;			/* a VM fault was recorded */
	char fault_hub[16];
	uint64_t fault_addr;
	uint32_t fault_status;
	char fault_client[24];		/* UTCL2 client, when the log named it */
	bool fault_write;		/* RW bit of the status register */

	/* The mapped outcome for the guilty process and for an innocent one. */
	bool mapped;
	struct gpurobust_report_outcome guilty, innocent;

	/* What the GPU was doing: the breadcrumb title when a capture was
	 * decoded (gpurobust_report_attach_breadcrumbs()), else empty. */
	char doing[256];
	uint64_t breadcrumb_signature;	/* the path signature, 0 without */

	/* The bucket. */
	char title[256];
	char signature_key[256];	/* the normalised text that is hashed */
	uint64_t signature;

	/* Provenance. */
	char kernel[65];
	enum gpurobust_cd_generation generation;
	int64_t time_sec;
	uint32_t time_nsec;
	size_t n_diags;			/* devcoredump diagnostics */
	bool truncated;

	/* Every hang and fault, in order. hangs[headline] is the one the
	 * fields above describe (the first, or the dump's); the others are
	 * reported as before or following it. */
	struct gpurobust_report_hang *hangs;
	size_t n_hangs, headline;
	struct gpurobust_report_fault *faults;
	size_t n_faults, headline_fault;
	bool partial;			/* from a devcoredump excerpt without its header */
	uint32_t family;		/* SOC family the dump names, 0 when absent */
	struct gpurobust_cd_diag *log_diags;	/* the kernel log's diagnostics */
	size_t n_log_diags;
};

/**
 * gpurobust_report_build() - fold a devcoredump and a kernel log into a report
 * @dump: the parsed devcoredump, or NULL
 * @log: the parsed kernel log, or NULL
 * @out: the report; free it with gpurobust_report_free()
 *
 * The dump wins where both say something; the log fills what the dump of an
 * older kernel lacks (recovery type and outcome, fault client and RW bit).
 *
 * Return: 0, -EINVAL when both inputs are NULL or @out is, -ENOMEM, and
 * -ENODATA when there is nothing to report: the dump has no devcoredump
 * section and the log no amdgpu hang or fault line (any file at all would
 * otherwise get a report and one shared signature).
 */
int gpurobust_report_build(const struct gpurobust_coredump *dump,
			   const struct gpurobust_dmesg *log,
			   struct gpurobust_report **out);
/* Safe on NULL. */
void gpurobust_report_free(struct gpurobust_report *report);

/**
 * gpurobust_report_print() - the human-readable report
 * @report: the report
 * @dump: the dump it came from, for the diagnostics and the IB summary; may
 *        be NULL
 * @out: where to write
 *
 * Return: 0, -EINVAL for NULL pointers, -EIO when writing failed.
 */
int gpurobust_report_print(const struct gpurobust_report *report,
			   const struct gpurobust_coredump *dump, FILE *out);

/**
 * gpurobust_report_to_json() - the report as one JSON object
 * @report: the report
 * @dump: as for gpurobust_report_print()
 *
 * Return: a NUL-terminated string to free(), or NULL on allocation failure.
 */
char *gpurobust_report_to_json(const struct gpurobust_report *report,
			       const struct gpurobust_coredump *dump);

const char *gpurobust_role_name(enum gpurobust_role role);

/* gpurobust_text_escape() is in text.h: every string a report prints goes
 * through it. */

struct gpurobust_bc_report;

/**
 * gpurobust_report_attach_breadcrumbs() - add what the GPU was doing
 * @report: the report
 * @bc: the breadcrumbs decoded from the dump's User Capture section (D3)
 *      with gpurobust_bc_decode()
 *
 * Titles the report by the guilty stream's active path and makes that path
 * part of the signature (B2), so that hangs in the same scope share a bucket
 * even when their processes or faults differ in detail.
 *
 * Return: 0, -EINVAL for NULL pointers, -ENOMEM.
 */
int gpurobust_report_attach_breadcrumbs(struct gpurobust_report *report,
					const struct gpurobust_bc_report *bc);

/* ---- VK_EXT_device_fault ------------------------------------------------ */

/* What vkGetDeviceFaultInfoEXT returns: one address record at most, and the
 * vendor binary (a VkDeviceFaultVendorBinaryHeaderVersionOneEXT followed by
 * the devcoredump text the report came from). */
struct gpurobust_device_fault {
	char description[VK_MAX_DESCRIPTION_SIZE];
	uint32_t address_count;			/* 0 or 1 */
	VkDeviceFaultAddressInfoEXT address;
	void *vendor_binary;			/* malloc()ed; free() it */
	size_t vendor_binary_size;
};

/* Identity of the device, for the vendor binary header. */
struct gpurobust_device_identity {
	uint32_t vendor_id, device_id, driver_version;
	uint8_t pipeline_cache_uuid[VK_UUID_SIZE];
};

/**
 * gpurobust_device_fault_fill() - fill VK_EXT_device_fault data for a hang
 * @report: the report, for the description; may be NULL
 * @vm_fault: the AMDGPU_INFO_GPUVM_FAULT answer from
 *            gpurobust_amdgpu_query_gpuvm_fault(), or NULL when that
 *            failed (a kernel older than 6.10, or no fault recorded)
 * @identity: the device, for the vendor binary header
 * @dump_text: the devcoredump text to embed, or NULL for none
 * @dump_len: its length
 * @out: the result; free out->vendor_binary
 *
 * The fault address is the start of the faulting GPU page, so its precision
 * is the 4 KiB GPU page; the RW bit of the status picks READ or WRITE_INVALID.
 *
 * Return: 0, -EINVAL for NULL @identity or @out, -ENOMEM.
 */
int gpurobust_device_fault_fill(const struct gpurobust_report *report,
				const struct gpurobust_gpuvm_fault *vm_fault,
				const struct gpurobust_device_identity *identity,
				const char *dump_text, size_t dump_len,
				struct gpurobust_device_fault *out);

/**
 * gpurobust_device_fault_parse_binary() - split a vendor binary again
 * @blob: what gpurobust_device_fault_fill() produced, or what a driver
 *        returned in pVendorBinaryData
 * @size: its size
 * @header: the version-one header, copied out
 * @payload: where the embedded devcoredump text starts (inside @blob)
 * @payload_len: its length
 *
 * Return: 0; -EINVAL for NULL pointers; -EBADMSG when the header is short,
 * of another version, or has a headerSize outside the blob.
 */
int gpurobust_device_fault_parse_binary(const void *blob, size_t size,
					VkDeviceFaultVendorBinaryHeaderVersionOneEXT *header,
					const char **payload, size_t *payload_len);

#ifdef __cplusplus
}
#endif

#endif
