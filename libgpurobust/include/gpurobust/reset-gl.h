/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/**
 * DOC: GL robustness status of a reset classification (L11, L12)
 *
 * What glGetGraphicsResetStatus() returns for a gpurobust_ctx
 * (gpurobust/reset.h). The answer is a GLenum returned as unsigned int, so
 * this header needs no GL header; the values are those of GL/glext.h
 * (KHR_robustness, ARB_robustness), which the library is built against.
 */
#ifndef GPUROBUST_RESET_GL_H
#define GPUROBUST_RESET_GL_H

#include "reset.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * gpurobust_ctx_gl_reset_status() - glGetGraphicsResetStatus() (L11, L12)
 * @ctx: the context
 *
 * Feed the latest QUERY_STATE2 answer first, so that RESET_IN_PROGRESS is
 * current. A lost context answers its reset status at least once, and again
 * on every call while the reset is in progress; after that GL_NO_ERROR. A
 * context that is not robust always answers GL_NO_ERROR.
 *
 * Return: a GLenum: GL_NO_ERROR, GL_GUILTY_CONTEXT_RESET,
 * GL_INNOCENT_CONTEXT_RESET or GL_UNKNOWN_CONTEXT_RESET.
 */
unsigned int gpurobust_ctx_gl_reset_status(struct gpurobust_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif
