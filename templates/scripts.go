package templates

import (
	"strings"
)

// runSh is run.sh (Linux) and run.command (macOS): it runs websim on the
// script's own folder (cmd "run") or on its Parameters.xlsx (cmd "lb").
// websim is looked for next to the script, then on PATH. The window stays
// open at the end when it is a terminal, so that a double-click user can
// read the outcome (WEBSIM_NO_PAUSE=1 skips the pause).
func runSh(cmd string) string {
	target, results := `"$here"`, `echo "The results are in $here/OutPut.xlsx (open it in Excel)."`
	if cmd == "lb" {
		target, results = `"$here/Parameters.xlsx"`, `echo "The results are above, and in new sheets of $here/Parameters.xlsx."`
	}
	return `#!/bin/sh
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
"$websim" ` + cmd + ` ` + target + `
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
` + results + `
pause
exit 0
`
}

// runBat is run.bat (Windows), the same as runSh; the window stays open at
// the end so that a double-click user can read the outcome.
func runBat(cmd string) string {
	target, results := `"%HERE%"`, `echo The results are in "%HERE%\OutPut.xlsx" (open it in Excel).`
	if cmd == "lb" {
		target, results = `"%HERE%\Parameters.xlsx"`, `echo The results are above, and in new sheets of "%HERE%\Parameters.xlsx".`
	}
	s := `@echo off
rem Runs websim on the model in this folder: double-click it.
rem websim.exe is looked for next to this script, then on the PATH.
setlocal
set "HERE=%~dp0"
if "%HERE:~-1%"=="\" set "HERE=%HERE:~0,-1%"

set "WEBSIM=%HERE%\websim.exe"
if exist "%WEBSIM%" goto found
set "WEBSIM="
for %%W in (websim.exe) do set "WEBSIM=%%~$PATH:W"
if defined WEBSIM goto found
echo websim.exe was not found next to this script or on the PATH.
echo Put the websim program for Windows in "%HERE%" and run this again.
pause
exit /b 1

:found
echo Running websim on "%HERE%" ...
"%WEBSIM%" ` + cmd + ` ` + target + `
rem Any status but 0 is a failure (Windows' own codes, such as Ctrl-C's, are negative).
if not "%ERRORLEVEL%"=="0" goto failed
echo.
` + results + `
pause
exit /b 0

:failed
set "STATUS=%ERRORLEVEL%"
echo.
if not "%STATUS%"=="2" goto stopped
echo websim found problems in the model (exit status 2): read the messages above,
echo fix what they point at (File!Sheet!Cell), save the workbooks and run again.
pause
exit /b %STATUS%

:stopped
echo websim could not finish (exit status %STATUS%): read the messages above.
echo (A workbook open in Excel is not replaced: close it and run again.)
pause
exit /b %STATUS%
`
	return strings.ReplaceAll(s, "\n", "\r\n")
}
