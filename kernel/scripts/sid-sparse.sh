#!/bin/sh
# Print the sparse command a series' W=1/sparse checks use.
#
# usage: [GPUROBUST_SERIES=7.2] kernel/scripts/sid-sparse.sh
#
# Linux 7.2's scripts/checker-valid.sh rejects Debian 12's sparse 0.6.4 (it
# cannot parse __typeof_unqual__), and kbuild then skips sparse with only a
# warning, so C=1 would check nothing. When the base rejects the system's
# sparse, this makes a sid root with mmdebstrap holding the sparse pinned in
# the series' BASE (SPARSE_DEB_VERSION; its binary's SPARSE_SHA256), cached
# in $CACHE_ROOT/sid-sparse-<version>, and prints a wrapper that runs it with
# that root's own loader and libc (sid's sparse needs glibc 2.38; nothing is
# installed on the system and no chroot is needed, as sparse only reads the
# files kbuild names). Prints "sparse" when the system's own is good enough.
# Exits 77, saying why, when sid no longer has the pinned version.
set -eu
. "$(dirname "$0")/lib.sh"

if [ ! -f "$BASE_GIT/scripts/checker-valid.sh" ] ||
	[ "$(sh "$BASE_GIT/scripts/checker-valid.sh" sparse 2>/dev/null)" = 1 ]; then
	echo sparse
	exit 0
fi
[ -n "${SPARSE_DEB_VERSION:-}" ] ||
	die "$KERNEL_VERSION rejects the system's sparse and $SDIR/BASE pins none"

root=$CACHE_ROOT/sid-sparse-$SPARSE_DEB_VERSION
wrapper=$root/sparse-wrapper
valid() {
	echo "$SPARSE_SHA256  $root/usr/bin/sparse" | sha256sum -c --quiet - 2>/dev/null &&
		[ "$(sh "$BASE_GIT/scripts/checker-valid.sh" "$wrapper" 2>/dev/null)" = 1 ]
}
if [ -x "$wrapper" ] && valid; then
	echo "$wrapper"
	exit 0
fi

mirror=$(debian_mirror)
rm -rf "$root.tmp"
log "making a sid root with sparse $SPARSE_DEB_VERSION in $root (mmdebstrap)" >&2
# The archive served here may be a snapshot whose Release is past its
# Valid-Until; apt's signature check still applies.
if ! mmdebstrap --quiet --variant=extract \
	--aptopt='Acquire::Check-Valid-Until "false"' \
	--include="libc6,sparse=$SPARSE_DEB_VERSION" sid "$root.tmp" \
	"deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror sid main" \
	> "$CACHE_ROOT/sid-sparse.log" 2>&1; then
	rm -rf "$root.tmp"
	now=$(APT=apt-cache suite_apt policy sparse 2>/dev/null |
		awk '$1 == "Candidate:" { print $2 }')
	echo "SKIP: Debian sid has no sparse $SPARSE_DEB_VERSION (it has ${now:-none} now): sparse cannot check $KERNEL_VERSION; pin SPARSE_DEB_VERSION and SPARSE_SHA256 in $SDIR/BASE anew" >&2
	exit 77
fi
cat > "$root.tmp/sparse-wrapper" <<EOF
#!/bin/sh
# sid's sparse $SPARSE_DEB_VERSION, run with the sid root's loader and libc.
exec "$root/usr/lib64/ld-linux-x86-64.so.2" --library-path "$root/usr/lib/x86_64-linux-gnu" "$root/usr/bin/sparse" "\$@"
EOF
chmod +x "$root.tmp/sparse-wrapper"
rm -rf "$root"
mv "$root.tmp" "$root"
valid || die "sparse in $root does not match SPARSE_SHA256 in $SDIR/BASE, or $KERNEL_VERSION rejects it"
echo "$wrapper"
