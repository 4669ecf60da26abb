# Runs EXE and passes only when it exits with status 0 AND its standard
# output matches REGEX (a CTest PASS_REGULAR_EXPRESSION alone ignores the
# exit status). Run with cmake -DEXE=... -DREGEX=... [-DEMULATOR=...] -P;
# EMULATOR (empty unless cross-compiling, e.g. qemu-aarch64) runs EXE.
execute_process(COMMAND ${EMULATOR} "${EXE}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} exited with status ${rc}")
endif()
if(NOT out MATCHES "${REGEX}")
  message(FATAL_ERROR "${EXE}: output does not match '${REGEX}'")
endif()
