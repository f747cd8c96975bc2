#!/bin/bash
# The manual page wqstat.1, as TAP: it renders without a warning and within
# 80 columns, it documents every option and exit status that the help texts
# of the binary given as $1 mention, and "make install" puts it (and the
# binary) where man finds it, "make uninstall" takes both away.
#   tests/man.sh WQSTAT
# Installs man-db and groff-base if they are missing (as root); skips what
# needs them only if that cannot be done.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
page=$src/wqstat.1
W=${1:?usage: man.sh WQSTAT-BINARY}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/tap.sh"

# A fixed rendering: UTF-8 if the C.UTF-8 locale is there (the strictest:
# typographic characters are multi-byte), 80 columns, no user settings.
if locale -a 2> /dev/null | grep -qiE '^c\.utf-?8$'; then loc=C.UTF-8; else loc=C; fi
export LC_ALL=$loc MANWIDTH=80
unset MANOPT MANPATH MANROFFOPT MAN_KEEP_FORMATTING MANSECT GROFF_SGR

# the tools, installed if missing
tools_ok() { command -v groff > /dev/null && command -v man > /dev/null && man --version > /dev/null 2>&1; }
why_skip=
if ! tools_ok; then
	if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
		echo "man.sh: installing man-db groff-base (apt-get)" >&2
		apt_in() {
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
				man-db groff-base > "$tmp/apt.log" 2>&1
		}
		apt_in || { apt-get update -qq > "$tmp/apt.log" 2>&1 && apt_in; } ||
			sed 's/^/man.sh: apt-get: /' "$tmp/apt.log" | tail -n 5 >&2
		tools_ok || why_skip="man-db and groff-base could not be installed"
	else
		why_skip="groff or man missing, and not root with apt-get to install them"
	fi
fi

# strip what a terminal would show as bold or underlined
plain() { sed -e 's/.\x08//g' -e 's/\x1b\[[0-9;]*m//g'; }
# the lines of section $1 of a rendered page on stdin, without the heading
section() { awk -v h="$1" '/^[A-Z]/ { on = ($0 == h); next } on'; }

# 1. groff's strictest warnings
if [ -n "$why_skip" ]; then
	t_skip "groff -ww finds nothing to warn about in wqstat.1" "$why_skip"
else
	groff -man -Tutf8 -ww -z "$page" > "$tmp/groff.out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && [ ! -s "$tmp/groff.out" ] && t_ok "groff -man -Tutf8 -ww -z wqstat.1: no warning" ||
		t_fail "groff -ww -z wqstat.1: exit $rc" "$(head -n 20 "$tmp/groff.out")"
fi

# the version in the page's footer (.TH) is the binary's
v=$("$W" --version 2>&1)
th=$(sed -n 's/^\.TH .*"\(wqstat [^"]*\)".*/\1/p' "$page")
[ -n "$th" ] && [ "$th" = "$v" ] && t_ok ".TH names the version that --version prints: $v" ||
	t_fail ".TH says '${th:-no version}', --version '$v'" "$(grep '^\.TH' "$page")"

# 2. man -l at 80 columns
rendered=
if [ -n "$why_skip" ]; then
	t_skip "man -l wqstat.1 renders within 80 columns" "$why_skip"
else
	man -l "$page" > "$tmp/man.raw" 2> "$tmp/man.err"
	rc=$?
	plain < "$tmp/man.raw" > "$tmp/man.txt"
	width=$(wc -L < "$tmp/man.txt")
	lines=$(wc -l < "$tmp/man.txt")
	if [ $rc -eq 0 ] && [ ! -s "$tmp/man.err" ] && grep -q '^NAME' "$tmp/man.txt" && [ "$width" -le 80 ]; then
		t_ok "MANWIDTH=80 man -l wqstat.1 ($loc): exit 0, nothing on stderr, $lines lines, the widest $width columns"
		rendered=$tmp/man.txt
	else
		t_fail "MANWIDTH=80 man -l wqstat.1 ($loc): exit $rc, widest line $width columns" \
			"stderr: $(head -n 10 "$tmp/man.err")" \
			"$(grep -n '.\{81,\}' "$tmp/man.txt" | head -n 5)"
		[ -s "$tmp/man.txt" ] && grep -q '^NAME' "$tmp/man.txt" && rendered=$tmp/man.txt
	fi
fi

# 3. every option of the help texts is in OPTIONS: the entries of the
# "Options:" list of wqstat --help in its first part, those of wqstat top -h
# under "Options of top", and the options in the brackets of the synopses
# anywhere in it
"$W" --help > "$tmp/help.main" 2>&1 || t_fail "$W --help exits 0" "$(head -n 5 "$tmp/help.main")"
"$W" top -h > "$tmp/help.top" 2>&1 || t_fail "$W top -h exits 0" "$(head -n 5 "$tmp/help.top")"
# the names heading the entries of the "Options:" list of help text $1
list_options() {
	awk '/^Options:/ { on = 1; next } /^$/ { on = 0 } on' "$1" |
		grep -oE '^ +(-[a-zA-Z](, +)?)?(--[a-z][a-z-]*)?' | grep -oE -- '--?[a-zA-Z][a-z-]*' | sort -u
}
# the options in the brackets of the synopses of help text $1: [-n N], [-j|-p|-x SEP]
synopsis_options() { grep -oE -- '[[|](-[a-zA-Z]|--[a-z][a-z-]*)' "$1" | cut -c2- | sort -u; }
# has_option OPT FILE: OPT as a word of its own, not inside a longer one
has_option() { grep -qE -- "(^|[^[:alnum:]-])$1([^[:alnum:]-]|\$)" "$2"; }
if [ -z "$rendered" ]; then
	t_skip "every option of --help and top -h is in OPTIONS" "${why_skip:-the page did not render}"
else
	section OPTIONS < "$rendered" > "$tmp/options.all"
	awk '/^   Options of top$/ { exit } 1' "$tmp/options.all" > "$tmp/options.main"
	awk '/^   Options of top$/ { on = 1; next } /^   [^ ]/ { on = 0 } on' "$tmp/options.all" > "$tmp/options.top"
	missing= count=0
	for o in $(list_options "$tmp/help.main"); do
		count=$((count + 1))
		has_option "$o" "$tmp/options.main" || missing="$missing $o"
	done
	for o in $(list_options "$tmp/help.top"); do
		count=$((count + 1))
		has_option "$o" "$tmp/options.top" || missing="$missing top:$o"
	done
	for o in $(cat "$tmp/help.main" "$tmp/help.top" | synopsis_options /dev/stdin); do
		has_option "$o" "$tmp/options.all" || missing="$missing synopsis:$o"
	done
	if [ $count -lt 20 ]; then
		t_fail "the help texts list only $count options: is the extraction broken?" "$(cat "$tmp/help.main")"
	elif [ -z "$missing" ]; then
		t_ok "the $count options listed by wqstat --help and wqstat top -h, and those of their synopses, are in OPTIONS (top's under \"Options of top\")"
	else
		t_fail "options in the help but not in OPTIONS:$missing"
	fi
fi

# 4. every exit status of the help texts' "Exit status" paragraphs
if [ -z "$rendered" ]; then
	t_skip "every exit status of the help is in EXIT STATUS" "${why_skip:-the page did not render}"
else
	section "EXIT STATUS" < "$rendered" > "$tmp/exit.txt"
	codes=$(cat "$tmp/help.main" "$tmp/help.top" | awk '/Exit status:/ { on = 1 } /^$/ { on = 0 } on' |
		grep -oE '(^|[^0-9A-Za-z.])[0-9]+' | grep -oE '[0-9]+' | sort -nu | tr '\n' ' ' | sed 's/ $//')
	missing=
	for c in $codes; do
		grep -qE "(^|[^0-9.])$c([^0-9.]|\$)" "$tmp/exit.txt" || missing="$missing $c"
	done
	if [ -z "$codes" ]; then
		t_fail "no exit status found in the help texts"
	elif [ -z "$missing" ]; then
		t_ok "EXIT STATUS has every status of the help texts: $codes"
	else
		t_fail "EXIT STATUS lacks:$missing (the help has: $codes)"
	fi
fi

# 5. make install and uninstall, into a scratch root, built in a scratch dir
# (without what an outer make passes down, e.g. its PREFIX)
root=$tmp/root
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$src" "$@" PREFIX=/usr DESTDIR="$root" O="$tmp/build" > "$tmp/make.log" 2>&1; }
bin=$root/usr/bin/wqstat
man1=$root/usr/share/man/man1/wqstat.1
if mk install; then
	v=$("$bin" --version 2>&1)
	if [ -f "$bin" ] && [ "$(stat -c %a "$bin")" = 755 ] && [ -f "$man1" ] && [ "$(stat -c %a "$man1")" = 644 ] &&
		cmp -s "$man1" "$page" && [ "${v#wqstat }" != "$v" ]; then
		t_ok "make install PREFIX=/usr DESTDIR=...: usr/bin/wqstat (0755, \"$v\") and usr/share/man/man1/wqstat.1 (0644)"
	else
		t_fail "make install: the files are not as they should be" \
			"$(cd "$root" && find . -type f -exec stat -c '%a %n' {} +)" "--version: $v"
	fi
	if [ -n "$why_skip" ]; then
		t_skip "man -M DESTDIR/usr/share/man wqstat renders the installed page" "$why_skip"
	else
		man -M "$root/usr/share/man" wqstat > "$tmp/inst.raw" 2> "$tmp/inst.err"
		rc=$?
		if [ $rc -eq 0 ] && [ ! -s "$tmp/inst.err" ] && plain < "$tmp/inst.raw" | grep -q '^WQSTAT(1)' &&
			plain < "$tmp/inst.raw" | grep -q '^SYNOPSIS'; then
			t_ok "man -M DESTDIR/usr/share/man wqstat finds and renders the installed page"
		else
			t_fail "man -M DESTDIR/usr/share/man wqstat: exit $rc" "$(head -n 5 "$tmp/inst.err")" \
				"$(head -n 3 "$tmp/inst.raw")"
		fi
	fi
	if mk uninstall && [ ! -e "$bin" ] && [ ! -e "$man1" ]; then
		t_ok "make uninstall with the same arguments removes both"
	else
		t_fail "make uninstall" "$(tail -n 5 "$tmp/make.log")" "$(cd "$root" && find . -type f)"
	fi
else
	t_fail "make install PREFIX=/usr DESTDIR=... O=...: failed" "$(tail -n 10 "$tmp/make.log")"
fi

echo "1..$n"
[ $bad -eq 0 ]
