/* swz/swz.h on its own, first in its translation unit (C99, -pedantic). */
#include "swz/swz.h"

const char* swz_test_header_alone(void);
const char* swz_test_header_alone(void) { return swz_status_name(SWZ_OK); }
