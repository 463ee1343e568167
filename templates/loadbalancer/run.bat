@echo off
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
"%WEBSIM%" lb "%HERE%\Parameters.xlsx"
rem Any status but 0 is a failure (Windows' own codes, such as Ctrl-C's, are negative).
if not "%ERRORLEVEL%"=="0" goto failed
echo.
echo The results are above, and in new sheets of "%HERE%\Parameters.xlsx".
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
