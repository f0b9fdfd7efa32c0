#include "app/json_out.h"

#include <stdint.h>

/* Length of the valid UTF-8 sequence at s, or 0 if it is not valid. */
static int utf8_len(const unsigned char *s)
{
    if (s[0] < 0x80) return 1;
    int n = (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 0 || (n == 2 && s[0] < 0xC2)) return 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    return n;
}

void json_string(FILE *out, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    fputc('"', out);
    while (*s) {
        int n = utf8_len(s);
        if (n == 0) {
            fputs("\\ufffd", out);
            s++;
            continue;
        }
        if (n > 1) {
            fwrite(s, 1, (size_t)n, out);
            s += n;
            continue;
        }
        switch (*s) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*s < 0x20)
                fprintf(out, "\\u%04x", *s);
            else
                fputc(*s, out);
        }
        s++;
    }
    fputc('"', out);
}
