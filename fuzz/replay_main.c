/* fuzz/replay_main.c — runs a fuzz target's LLVMFuzzerTestOneInput once over saved inputs, with
 * any compiler: every regular file under the directories (or the files) given as arguments. A
 * crash or abort() fails the run, which is how the corpus serves as a regression test. */
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static long files_run;

static int run_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    if (type != FTW_F || !S_ISREG(st->st_mode)) return 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return 1;
    }
    size_t size = (size_t)st->st_size;
    uint8_t *buf = malloc(size ? size : 1); /* exactly the file's size, so ASan sees overreads */
    size_t got = size ? fread(buf, 1, size, f) : 0;
    fclose(f);
    if (got != size) {
        fprintf(stderr, "%s: read error\n", path);
        free(buf);
        return 1;
    }
    LLVMFuzzerTestOneInput(buf, size);
    free(buf);
    files_run++;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR|FILE...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        if (nftw(argv[i], run_file, 16, FTW_PHYS) != 0) {
            fprintf(stderr, "%s: cannot read\n", argv[i]);
            return 2;
        }
    }
    printf("%ld inputs run without a crash\n", files_run);
    return files_run > 0 ? 0 : 2;
}
