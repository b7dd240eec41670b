#!/bin/sh
# deps.sh — make sure what the build needs is installed.
# Each argument is CHECK=DEBIAN_PACKAGE, where CHECK is a pkg-config name (pc:NAME), a command
# (cmd:NAME) or a file (file:PATH). Missing packages are installed with apt-get when running as
# root; otherwise the exact install line is printed and the script fails.
missing=""
for spec in "$@"; do
    check=${spec%%=*}
    pkg=${spec#*=}
    case "$check" in
        pc:*) pkg-config --exists "${check#pc:}" 2>/dev/null && continue ;;
        cmd:*) command -v "${check#cmd:}" >/dev/null 2>&1 && continue ;;
        file:*) [ -e "${check#file:}" ] && continue ;;
        libfuzzer:*) # clang can link a libFuzzer target
            t=$(mktemp -d) && printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
                'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' \
                >"$t/f.c" && "${check#libfuzzer:}" -fsanitize=fuzzer "$t/f.c" -o "$t/f" 2>/dev/null
            ok=$?; rm -rf "$t"; [ $ok = 0 ] && continue ;;
    esac
    case " $missing " in *" $pkg "*) ;; *) missing="$missing $pkg" ;; esac
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "tengen: installing missing Debian packages:$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    # Wait for dpkg's lock rather than fail when another apt-get holds it.
    lock="-o DPkg::Lock::Timeout=600"
    apt-get $lock update -qq >/dev/null &&
        apt-get $lock install -y -qq --no-install-recommends $missing >/dev/null && exit 0
    echo "tengen: apt-get failed; install by hand: apt-get install$missing" >&2
    exit 1
fi
echo "tengen: missing packages. Install them with:" >&2
echo "    sudo apt-get install$missing" >&2
exit 1
