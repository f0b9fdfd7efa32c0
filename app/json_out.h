/* app/json_out.h — writing JSON strings safely. */
#ifndef KIFUCAM_APP_JSON_OUT_H
#define KIFUCAM_APP_JSON_OUT_H

#include <stdio.h>

/* Write s as a JSON string literal (quotes, escapes; invalid UTF-8 bytes become U+FFFD). */
void json_string(FILE *out, const char *s);

#endif
