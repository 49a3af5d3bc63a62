/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/**
 * DOC: devcoredump and dmesg parsers
 *
 * amdgpu writes a text devcoredump when a job times out, and a handful of
 * kernel log lines around it. These parsers turn both into plain structures.
 * They are pure: bytes in, structures out, no files and no devices.
 *
 * The devcoredump parser knows every printer generation from Linux 6.10 to
 * today's upstream (header, SOC and firmware blocks, ring timeout, page fault,
 * IP dump, ring contents, IB contents) and the sections the gpurobust series
 * appends (`**** Name vN ****`, D1 to D4). It never fails on content: a
 * section it does not know is kept raw, and truncated or corrupt input gives
 * a partial result plus diagnostics that name the line.
 */
#ifndef GPUROBUST_COREDUMP_H
#define GPUROBUST_COREDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Sections seen in a devcoredump, as bits of gpurobust_coredump.features. */
#define GPUROBUST_CD_HEADER		(1u << 0)  /* "**** AMDGPU Device Coredump ****" */
#define GPUROBUST_CD_SOC_INFO		(1u << 1)  /* SOC, memory, GDS, IP versions (6.10+) */
#define GPUROBUST_CD_FIRMWARE		(1u << 2)  /* "IP Firmwares" (6.10+) */
#define GPUROBUST_CD_RING_TIMEOUT	(1u << 3)  /* "Ring timed out details" */
#define GPUROBUST_CD_PAGE_FAULT		(1u << 4)  /* "[gfxhub|mmhub] Page fault observed" */
#define GPUROBUST_CD_IP_DUMP		(1u << 5)  /* "IP Dump" (6.11+) */
#define GPUROBUST_CD_RINGS		(1u << 6)  /* "Ring buffer information" */
#define GPUROBUST_CD_IP_DISCOVERY	(1u << 7)  /* "HW IP Discovery" (7.1+) */
#define GPUROBUST_CD_IBS		(1u << 8)  /* "IB #n 0x... n dw" (7.1+) */
#define GPUROBUST_CD_SERIES_RESET	(1u << 9)  /* "**** Reset v1 ****" (D1) */
#define GPUROBUST_CD_SERIES_HANG_RING	(1u << 10) /* "**** Hang Ring v1 ****" (D2) */
#define GPUROBUST_CD_SERIES_CAPTURE	(1u << 11) /* "**** User Capture v1 ****" (D3) */
#define GPUROBUST_CD_REGISTERS		(1u << 12) /* "AMDGPU register dumps:" (<= 6.10) */
#define GPUROBUST_CD_SERIES_HANG_RING_V2 (1u << 13) /* "**** Hang Ring v2 ****" (D2) */

/* Which printer wrote a dump, derived from the sections it has. */
enum gpurobust_cd_generation {
	GPUROBUST_CD_GEN_UNKNOWN = 0,	/* no header: not an amdgpu devcoredump */
	GPUROBUST_CD_GEN_EARLY,		/* 6.6 to 6.9: header, ring, fault only */
	GPUROBUST_CD_GEN_6_12,		/* 6.10 to 7.0: SOC, firmware, IP dump, rings */
	GPUROBUST_CD_GEN_IB_DUMP,	/* 7.1+: IP discovery and IB contents */
	GPUROBUST_CD_GEN_SERIES,	/* the gpurobust series' sections (D1-D4) */
};

/* One block of dwords: a ring, an IB or a hang-time ring copy.
 *
 * Parsing only indexes a dump: the contents are located in the text, as a
 * byte range of the printed lines, and not read (so parsing a 10 MiB dump
 * costs little more than finding its line ends). gpurobust_coredump_decode()
 * turns them into dwords, diagnosing lines that are not. */
struct gpurobust_cd_ring {
	char name[32];
	uint64_t rptr, wptr;
	uint32_t buf_mask;
	uint32_t size_dw;	/* as printed; n_dwords may be less when truncated */
	/* the "0x<offset> \t 0x<value>" lines, as a range of the text */
	size_t contents_offset, contents_len;
	uint32_t *dwords;	/* after gpurobust_coredump_decode() */
	size_t n_dwords;
};

struct gpurobust_cd_ib {
	uint64_t gpu_addr;
	uint32_t size_dw;
	/* false when the kernel could not reach the IB's memory (7.1 prints
	 * the header alone then) */
	bool has_contents;
	/* the "0x<value>" lines, as a range of the text */
	size_t contents_offset, contents_len;
	uint32_t *dwords;	/* after gpurobust_coredump_decode() */
	size_t n_dwords;
};

/* A section kept as text: an unknown `**** Name vN ****` section (D4), or
 * one IP block of the IP dump. */
struct gpurobust_cd_raw {
	char *name;
	unsigned int version;	/* 0 when the header carries none */
	char *text;
	size_t len;
};

enum gpurobust_recovery_type {
	GPUROBUST_RECOVERY_UNKNOWN = 0,
	GPUROBUST_RECOVERY_SOFT,	/* soft_recovery */
	GPUROBUST_RECOVERY_RING,	/* ring_reset */
	GPUROBUST_RECOVERY_FULL,	/* full_reset */
	GPUROBUST_RECOVERY_NONE,	/* none: no recovery was attempted (Reset v1) */
};

enum gpurobust_recovery_outcome {
	GPUROBUST_OUTCOME_UNKNOWN = 0,
	GPUROBUST_OUTCOME_PENDING,
	GPUROBUST_OUTCOME_RECOVERED,
	GPUROBUST_OUTCOME_FAILED,
};

struct gpurobust_cd_innocent {
	uint64_t ctx;
	char process[32];
	int32_t pid;
};

/* The series' "**** Reset v1 ****" section (D1). */
struct gpurobust_cd_reset {
	unsigned int version;
	enum gpurobust_recovery_type type;
	enum gpurobust_recovery_outcome outcome;
	char ring[32];
	uint64_t guilty_ctx;
	uint64_t seqno;
	char process[32];
	int32_t pid;
	struct gpurobust_cd_innocent *innocents;
	size_t n_innocents;
	/* the "vram_lost: 0|1" key, the series' final answer; when present it
	 * also sets gpurobust_coredump.vram_lost */
	bool has_vram_lost;
};

/* One "**** User Capture v1 ****" section (D3): a dumpable mapping
 * (AMDGPU_VM_DUMPABLE) of the guilty VM, which has at most 4 of them
 * (AMDGPU_VM_DUMPABLE_MAX_MAPPINGS), so a dump has up to 4 sections. The
 * first layout (the series' v1 GEM op) had the size: line and the dwords
 * only; the current one adds va: and, when the kernel could not copy the
 * mapping, error: with size 0. Unknown keys are skipped. */
#define GPUROBUST_CD_MAX_CAPTURES 4
struct gpurobust_cd_capture {
	uint8_t *data;
	size_t len;		/* bytes read; less than size when cut short */
	size_t size;		/* the section's "size:" line: bytes copied */
	size_t line;		/* 1-based line of the section title */
	/* the "va:" line: where the mapping starts in the guilty VM */
	bool has_va;
	uint64_t va;
	/* the "error:" line: the negative errno of a copy that failed (the
	 * mapping was gone or could not be read); 0 when copied */
	int error;
};

/* Severity of a diagnostic. */
enum gpurobust_cd_severity {
	GPUROBUST_CD_NOTE = 0,	/* something skipped on purpose, e.g. a newer section version */
	GPUROBUST_CD_WARNING,	/* a line did not match its section's grammar */
	GPUROBUST_CD_ERROR,	/* data is missing: truncated or corrupt input */
};

struct gpurobust_cd_diag {
	enum gpurobust_cd_severity severity;
	size_t line;		/* 1-based; 0 when about the whole input */
	char message[120];
};

struct gpurobust_coredump {
	unsigned int features;		/* GPUROBUST_CD_* */
	enum gpurobust_cd_generation generation;

	/* Header. */
	unsigned int format_version;	/* "version: N" */
	char kernel[65];
	char module[32];
	int64_t time_sec;
	uint32_t time_nsec;
	char process[32];		/* empty for kernel-thread jobs */
	int32_t pid;			/* 0 when the dump names no process */

	/* SOC information (6.10+), 0 when absent. */
	uint32_t pci_device_id, pci_revision, family;

	/* The timed-out ring. */
	int ip_type;			/* AMDGPU_HW_IP_*; -1 when absent */
	char timeout_ring[32];

	/* The last VM fault the device saw; not necessarily this job's. */
	bool fault_mmhub;
	uint64_t fault_addr;
	uint32_t fault_status;

	bool vram_lost;
	bool vram_check_skipped;

	struct gpurobust_cd_raw *ip_blocks;	/* IP dump, one per IP */
	size_t n_ip_blocks;
	struct gpurobust_cd_ring *rings;	/* ring contents as printed */
	size_t n_rings;
	struct gpurobust_cd_ib *ibs;		/* the guilty job's IBs (7.1+) */
	size_t n_ibs;

	/* The series' sections. */
	struct gpurobust_cd_reset reset;	/* when features has SERIES_RESET */
	struct gpurobust_cd_ring hang_ring;	/* when features has SERIES_HANG_RING */
	/* The first User Capture section (captures[0]); kept for callers that
	 * read one buffer. */
	uint8_t *capture;
	size_t capture_len;

	struct gpurobust_cd_raw *unknown;	/* sections kept raw (D4) */
	size_t n_unknown;

	struct gpurobust_cd_diag *diags;
	size_t n_diags;
	bool truncated;		/* the input ended inside a section */

	/* Every User Capture section, in dump order (D3). */
	struct gpurobust_cd_capture *captures;
	size_t n_captures;

	/* An excerpt without the "**** AMDGPU Device Coredump ****" line, read
	 * as far as its lines go (people paste the part that matters). */
	bool partial;
	/* The fault block named a fault: the 6.12 printer prints the block
	 * for every dump, so an address and a status of 0 name none; the 6.7
	 * prototype printed the kernel log's fault lines instead. */
	bool fault_seen;
	char fault_client[24];		/* the prototype's "from client 0x1b (UTCL2)" */
	/* "Ring buffer information" holds the rings as they were when the job
	 * timed out, only those with unsignalled fences and the timed-out one
	 * (7.1+, eea85914d15b); false for the 6.10 to 7.0 printers, which read
	 * every ring when the dump is read */
	bool rings_at_hang;
	/* The series' "**** Hang Ring v2 ****" section (D2): every ring the
	 * kernel copied when the job timed out (those with unsignalled fences
	 * and the timed-out one), each in the 7.1 ring block's format. */
	struct gpurobust_cd_ring *hang_rings;
	size_t n_hang_rings;
};

/**
 * gpurobust_coredump_parse() - parse the text of an amdgpu devcoredump
 * @text: the dump as read from /sys/class/devcoredump/devcdN/data; need not
 *        be NUL-terminated
 * @len: its length in bytes
 * @out: the result; free it with gpurobust_coredump_free()
 *
 * Content problems never make this fail: they become diagnostics and the
 * result holds everything that parsed. A dump without the amdgpu header gets
 * generation UNKNOWN and an ERROR diagnostic.
 *
 * Return: 0, -EINVAL for NULL pointers, -ENOMEM.
 */
int gpurobust_coredump_parse(const char *text, size_t len,
			     struct gpurobust_coredump **out);
/* Safe on NULL. */
void gpurobust_coredump_free(struct gpurobust_coredump *dump);

/**
 * gpurobust_coredump_decode() - decode the dword contents of a parsed dump
 * @dump: the result of gpurobust_coredump_parse()
 * @text: the same text that was parsed
 * @len: its length
 *
 * Fills dwords and n_dwords of every ring, IB and hang ring from their
 * printed lines. A line that is not a dword, or an offset out of sequence,
 * stops its block with a WARNING diagnostic. Calling it again does nothing.
 *
 * Return: 0, -EINVAL for NULL pointers or a text shorter than the parsed
 * one, -ENOMEM.
 */
int gpurobust_coredump_decode(struct gpurobust_coredump *dump, const char *text, size_t len);

/**
 * gpurobust_coredump_hung_ring() - the timed-out ring's contents at hang time
 * @dump: a parsed dump
 *
 * The series' "**** Hang Ring v1 ****" section when there is one; else the
 * timed-out ring's block of its "**** Hang Ring v2 ****" section (the ring
 * the Reset section or "Ring timed out details" names); else, in a dump of
 * the 7.1 printer (upstream's "save ring content before resetting
 * the device", eea85914d15b), the "Ring buffer information" entry of the
 * timed-out ring, which that printer copies when the job times out. The
 * 6.10 to 7.0 printers read the rings when the dump is read, after the
 * reset: their rings are not the hang's, and NULL is returned for them.
 *
 * Return: the ring, or NULL when the dump holds no hang-time copy of it.
 */
const struct gpurobust_cd_ring *gpurobust_coredump_hung_ring(const struct gpurobust_coredump *dump);

/* Stable lower-case names for logs and JSON; "invalid" for unknown values. */
const char *gpurobust_cd_generation_name(enum gpurobust_cd_generation gen);
const char *gpurobust_recovery_type_name(enum gpurobust_recovery_type type);
const char *gpurobust_recovery_outcome_name(enum gpurobust_recovery_outcome outcome);

/* Kernel log lines around a hang. */
enum gpurobust_dmesg_kind {
	GPUROBUST_DMESG_RING_TIMEOUT = 1,	/* ring X timeout, signaled seq=, emitted seq= */
	GPUROBUST_DMESG_SOFT_RECOVERED,		/* ring X timeout, but soft recovered */
	GPUROBUST_DMESG_PROCESS,		/* Process information: process X pid ... */
	GPUROBUST_DMESG_PAGE_FAULT,		/* [gfxhub] page fault (src_id: ring: vmid: pasid:) */
	GPUROBUST_DMESG_FAULT_PROCESS,		/* the faulting process, after the fault line */
	GPUROBUST_DMESG_FAULT_ADDRESS,		/* in page starting at address 0x... from client */
	GPUROBUST_DMESG_FAULT_STATUS,		/* *VM_L2_PROTECTION_FAULT_STATUS:0x... */
	GPUROBUST_DMESG_FAULT_FIELD,		/* Faulty UTCL2 client ID / MORE_FAULTS / ... */
	GPUROBUST_DMESG_RING_RESET_BEGIN,	/* Starting X ring reset (6.13+) */
	GPUROBUST_DMESG_RING_RESET_DONE,	/* Ring X reset succeeded / failed */
	GPUROBUST_DMESG_GPU_RESET_BEGIN,	/* GPU reset begin! */
	GPUROBUST_DMESG_GPU_RESET_DONE,		/* GPU reset(n) succeeded! / failed, Recovery Failed */
	GPUROBUST_DMESG_VRAM_LOST,		/* VRAM is lost due to GPU reset! */
	GPUROBUST_DMESG_COREDUMP,		/* AMDGPU device coredump file has been created */
	GPUROBUST_DMESG_WEDGED,			/* device wedged, but recovered through reset */
	GPUROBUST_DMESG_RESET_METHOD,		/* MODE1 / MODE2 / BACO / pci config reset */
};

struct gpurobust_dmesg_event {
	enum gpurobust_dmesg_kind kind;
	size_t line;			/* 1-based line of the input */
	char ring[32];			/* RING_*, SOFT_RECOVERED */
	char process[32], thread[32];	/* PROCESS, FAULT_PROCESS */
	int32_t pid, tid;
	uint32_t signaled_seq, emitted_seq;
	bool ok;			/* *_DONE: succeeded */
	/* PAGE_FAULT: hub, src_id, ring id, vmid, pasid, retry. FAULT_ADDRESS:
	 * addr, client id and name. FAULT_STATUS: status. FAULT_FIELD: field
	 * name and value, client name for the UTCL2 client. */
	char hub[16];
	uint32_t src_id, ring_id, vmid, pasid;
	bool retry;
	uint64_t addr;
	uint32_t client_id;
	char client[24];
	uint32_t status;
	char field[24];
	uint32_t value;
};

/* Longest process, thread, client or device name kept; longer ones are cut.
 * The kernel's own names are at most 15 bytes (TASK_COMM_LEN), but the text
 * comes from whoever posted it. */
#define GPUROBUST_NAME_MAX 32

/* One hang of a kernel log: a ring timeout, or a reset no timeout line
 * announces (the log was cut, or KFD or MES asked for it). */
struct gpurobust_log_hang {
	size_t line;			/* 1-based line that opened it */
	char device[GPUROBUST_NAME_MAX];	/* "0000:03:00.0", "drmn0"; "" unknown */
	char ring[GPUROBUST_NAME_MAX];	/* "" when no timeout line names it */
	uint32_t signaled_seq, emitted_seq;
	/* The guilty task as the log prints it; the names may be empty (a
	 * kernel job, or FreeBSD) while the pid is real. */
	bool has_process, has_tid;
	char process[GPUROBUST_NAME_MAX], thread[GPUROBUST_NAME_MAX];
	int32_t pid, tid;
	enum gpurobust_recovery_type recovery;
	enum gpurobust_recovery_outcome outcome;
	bool vram_lost;
};

/* Which register layout a fault status uses, from the register the log
 * names or the SOC family a dump gives. */
enum gpurobust_fault_layout {
	GPUROBUST_FAULT_LAYOUT_UNKNOWN = 0,
	GPUROBUST_FAULT_LAYOUT_GCN,	/* VM_CONTEXT1_PROTECTION_FAULT_STATUS, gmc_v6-v8 */
	GPUROBUST_FAULT_LAYOUT_GFX9,	/* *VM_L2_PROTECTION_FAULT_STATUS, gmc_v9-v11 */
};

/* A protection fault status register, split into its fields. */
struct gpurobust_fault_bits {
	enum gpurobust_fault_layout layout;	/* UNKNOWN: nothing below is set */
	uint32_t more_faults, walker_error, permission_faults, mapping_error;
	uint32_t client_id, rw, vmid;
};

/**
 * gpurobust_fault_decode() - split a protection fault status register
 * @status: the register value
 * @layout: its layout
 * @out: the fields
 *
 * Return: false when the layout is unknown (gfx12's status registers are not
 * decoded: their layout differs and no public log shows one).
 */
bool gpurobust_fault_decode(uint32_t status, enum gpurobust_fault_layout layout,
			    struct gpurobust_fault_bits *out);

/* The layout of the SOC family a 6.10+ devcoredump prints (AMDGPU_FAMILY_*). */
enum gpurobust_fault_layout gpurobust_fault_layout_of_family(uint32_t family);

/* One VM fault record of a kernel log: the fault line and its details. */
struct gpurobust_log_fault {
	size_t line;
	char device[GPUROBUST_NAME_MAX];
	char hub[16];			/* "gfxhub0", "mmhub"; "" on GCN */
	bool retry;
	uint32_t vmid, pasid;
	bool has_addr, has_status, has_process;
	uint64_t addr;			/* byte address of the faulting page */
	uint32_t status;
	enum gpurobust_fault_layout layout;	/* from the status register's name */
	char client[GPUROBUST_NAME_MAX];	/* the most specific client named */
	char process[GPUROBUST_NAME_MAX];
	int32_t pid;
	/* the thread, when the task text names one; has_tid when its pid too */
	char thread[GPUROBUST_NAME_MAX];
	int32_t tid;
	bool has_tid;
	bool write;			/* GCN's "write to", or the RW field */
};

/* Hangs and faults of the log, in order; the scalar fields describe the
 * first hang and the first fault (the report's headline). */
struct gpurobust_dmesg {
	struct gpurobust_dmesg_event *events;
	size_t n_events;

	bool timeout;			/* a ring timeout was logged */
	char ring[32];
	uint32_t signaled_seq, emitted_seq;
	char process[32], thread[32];
	int32_t pid, tid;
	enum gpurobust_recovery_type recovery;
	enum gpurobust_recovery_outcome outcome;
	bool vram_lost;

	bool fault;			/* a VM fault was logged */
	char fault_hub[16];
	uint32_t fault_vmid, fault_pasid;
	char fault_process[32];
	int32_t fault_pid;
	uint64_t fault_addr;
	uint32_t fault_status;
	bool fault_status_known;
	char fault_client[24];		/* decoded UTCL2 client, e.g. "TCP" */
	uint32_t more_faults, walker_error, permission_faults, mapping_error, rw;

	struct gpurobust_log_hang *hangs;
	size_t n_hangs;
	struct gpurobust_log_fault *faults;
	size_t n_faults;
	/* What could not be read: fault details without their fault line,
	 * cut or malformed hang lines, elisions (at most 64). */
	struct gpurobust_cd_diag *diags;
	size_t n_diags;
	bool reversed;			/* newest first (journalctl -r): read backwards */
};

/**
 * gpurobust_dmesg_parse() - find the hang-related lines in kernel log text
 * @text: dmesg, journalctl -k or /dev/kmsg text, any line prefix
 * @len: its length in bytes
 * @out: the result; free it with gpurobust_dmesg_free()
 *
 * Lines that are not about an amdgpu hang are ignored. Message formats are
 * those of Linux 4.15 to 7.1 and of FreeBSD's drm-kmod, under any capture's
 * line prefix (dmesg, dmesg -T, syslog, journalctl with or without -r);
 * lines of several GPUs may interleave. Lines that look like hang or fault
 * lines but cannot be read become diagnostics.
 *
 * Return: 0, -EINVAL for NULL pointers, -ENOMEM.
 */
int gpurobust_dmesg_parse(const char *text, size_t len,
			  struct gpurobust_dmesg **out);
/* Safe on NULL. */
void gpurobust_dmesg_free(struct gpurobust_dmesg *log);

const char *gpurobust_dmesg_kind_name(enum gpurobust_dmesg_kind kind);

#ifdef __cplusplus
}
#endif

#endif
