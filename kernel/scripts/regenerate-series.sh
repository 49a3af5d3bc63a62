#!/bin/sh
# Regenerate a series' patches/ and series (kernel/ for 6.12, kernel/7.2/
# for 7.2) from a working tree.
#
# usage: [GPUROBUST_SERIES=7.2] kernel/scripts/regenerate-series.sh TREE
#
# TREE is a git tree whose history holds the base commit (a worktree of the
# base tree, see prepare-base.sh) with the series committed on top of it.
# Every commit from the base commit to TREE's HEAD becomes a patch, with a
# cover letter whose subject and text come from kernel/cover-letter.txt.
# The output does not depend on the date or on who runs it, so regenerating
# an unchanged series leaves the repository unchanged.
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 TREE"
tree=$1
git -C "$tree" merge-base --is-ancestor "$BASE_COMMIT" HEAD ||
	die "$tree does not build on the base commit $BASE_COMMIT"
count=$(git -C "$tree" rev-list --count "$BASE_COMMIT..HEAD")
[ "$count" -gt 0 ] || die "$tree has no commits on top of the base"

out=$SDIR/patches
rm -rf "$out"
mkdir -p "$out"
# The cover letter is from the series' author, whoever runs this.
GIT_COMMITTER_NAME=gpurobust GIT_COMMITTER_EMAIL=kernel@gpurobust.invalid \
	git -C "$tree" format-patch -q --cover-letter --zero-commit --no-signature \
	--base="$BASE_COMMIT" -o "$out" "$BASE_COMMIT..HEAD"

# Fill the cover letter's placeholders: the first line of cover-letter.txt
# is the subject, the rest (after a blank line) the text.
cover=$out/0000-cover-letter.patch
subject=$(head -n 1 "$SDIR/cover-letter.txt")
tail -n +3 "$SDIR/cover-letter.txt" > "$out/blurb"
awk -v subject="$subject" -v blurb="$out/blurb" '
	/^Subject: / { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
	/^Date: / { print "Date: Fri, 14 Nov 2025 00:00:00 +0000"; next }
	/^\*\*\* BLURB HERE \*\*\*$/ {
		while ((getline line < blurb) > 0)
			print line
		next
	}
	{ print }' "$cover" > "$cover.new"
mv "$cover.new" "$cover"
rm -f "$out/blurb"

{
	echo "# The series, in the order \`git am\` applies it (kernel/scripts/apply-series.sh)."
	echo "# Written by kernel/scripts/regenerate-series.sh; the cover letter is not applied."
	for patch in "$out"/[0-9][0-9][0-9][0-9]-*.patch; do
		[ "$patch" = "$cover" ] || basename "$patch"
	done
} > "$SDIR/series"
log "wrote $count patches and a cover letter to $SDIR/patches/ and $SDIR/series"
