/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_COMMON_EXPORT_H
#define GPUROBUST_COMMON_EXPORT_H

/* The library builds with -fvisibility=hidden; only functions marked here
 * (and matched by the library's version script) form the ABI. */
#define GPUROBUST_EXPORT __attribute__((visibility("default")))

#endif
