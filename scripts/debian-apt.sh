# shellcheck shell=sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# Debian archive helpers for scripts that fetch from another suite than the
# system's, never touching the system's apt sources. Source it with
# CACHE_ROOT and DEB_SUITE set; it uses die() of the sourcing script.

# debian_mirror: the Debian mirror the system's apt uses (not its security
# archive), or GPUROBUST_DEBIAN_MIRROR.
debian_mirror() {
	# shellcheck disable=SC2016 # apt's own $(FIELD) syntax
	mirror=${GPUROBUST_DEBIAN_MIRROR:-$(apt-get indextargets \
		--format '$(REPO_URI) $(COMPONENT)' 'Identifier: Packages' 2>/dev/null |
		awk '$1 !~ /security/ && $2 == "main" { print $1; exit }')}
	[ -n "$mirror" ] || die "no Debian mirror in the system's apt sources; set GPUROBUST_DEBIAN_MIRROR"
	echo "$mirror"
}

# suite_apt ARGS...: apt-get (or apt-cache, with APT=apt-cache) on DEB_SUITE
# only, with its own source list and state under $CACHE_ROOT/apt-$DEB_SUITE.
# The mirror is the one the system's apt uses for Debian (or
# GPUROBUST_DEBIAN_MIRROR).
suite_apt() {
	dir=$CACHE_ROOT/apt-$DEB_SUITE
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	mirror=$(debian_mirror)
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $DEB_SUITE main" \
		> "$dir/sources.list"
	${APT:-apt-get} -q -o Dir::Etc::sourcelist="$dir/sources.list" \
		-o Dir::Etc::sourceparts=/dev/null -o Dir::State::Lists="$dir/lists" \
		-o Dir::Cache="$dir/cache" -o APT::Sandbox::User=root "$@"
}

