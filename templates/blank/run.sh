#!/bin/sh
# Runs websim on the model in this folder: double-click it (macOS: run.command;
# Linux: run.sh, "Run in terminal"), or type: sh run.sh
# websim is looked for next to this script, then on the PATH.

case "$0" in
*/*) here=${0%/*} ;;
*) here=. ;;
esac
here=$(CDPATH= cd -- "$here" && pwd) || exit 1

pause() {
	if [ -t 0 ] && [ -z "$WEBSIM_NO_PAUSE" ]; then
		printf '%s' "Press Enter to close this window. "
		read -r _
	fi
}

if [ -x "$here/websim" ]; then
	websim="$here/websim"
elif command -v websim >/dev/null 2>&1; then
	websim=$(command -v websim)
elif [ -f "$here/websim" ]; then
	echo "websim is in $here but may not be run: it lost its permission to run"
	echo "(copied from mail, a download or a Windows share). Give it back with"
	echo "  chmod +x \"$here/websim\""
	echo "and run this again."
	pause
	exit 1
else
	echo "websim was not found next to this script or on the PATH."
	echo "Put the websim program for your system in $here and run this again."
	pause
	exit 1
fi

echo "Running websim on $here ..."
"$websim" run "$here"
status=$?
echo
if [ "$status" -eq 2 ]; then
	echo "websim found problems in the model (exit status 2): read the messages above,"
	echo "fix what they point at (File!Sheet!Cell), save the workbooks and run again."
	pause
	exit "$status"
elif [ "$status" -ne 0 ]; then
	echo "websim could not finish (exit status $status): read the messages above."
	echo "(A workbook open in Excel is not replaced: close it and run again.)"
	pause
	exit "$status"
fi
echo "The results are in $here/OutPut.xlsx (open it in Excel)."
pause
exit 0
