/* tests/record/test_sgf_parse.c — SGF text to tree: escapes, FF[3] identifiers, merged
 * properties, variations, several games, junk, damage with line:column, hostile nesting. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/sgf.h"
#include "tests/record/test_sgf_util.h"

static struct sgf_collection *parse(const char *text, struct sgf_error *err)
{
    return sgf_parse(text, strlen(text), err);
}

static const struct sgf_prop *prop(const struct sgf_node *n, const char *id)
{
    for (int i = 0; i < n->nprops; i++)
        if (strcmp(n->props[i].id, id) == 0) return &n->props[i];
    return NULL;
}

static void test_escapes_and_soft_breaks(void **state)
{
    (void)state;
    struct sgf_error err;
    struct sgf_collection *c =
        parse("(;C[a \\] b \\\\ c \\: d]GC[one\\\ntwo\\\r\nthree\\\n\rfour\\\rfive]"
              "PB[keep\nnewline])",
              &err);
    assert_non_null(c);
    assert_int_equal(err.line, 0);
    assert_int_equal(c->ngames, 1);
    assert_string_equal(sgf_node_get(c->games[0], "C"), "a ] b \\ c : d");
    assert_string_equal(sgf_node_get(c->games[0], "GC"), "onetwothreefourfive");
    assert_string_equal(sgf_node_get(c->games[0], "PB"), "keep\nnewline");
    assert_null(sgf_node_get(c->games[0], "PW"));
    sgf_collection_free(c);
}

static void test_ff3_identifiers(void **state)
{
    (void)state;
    struct sgf_error err;
    struct sgf_collection *c =
        parse("(;GaMe[1]SiZe[9]AddBlack[cc][gg]Comment[x];Black[ee];White[ff])", &err);
    assert_non_null(c);
    const struct sgf_node *root = c->games[0];
    assert_string_equal(sgf_node_get(root, "GM"), "1");
    assert_string_equal(sgf_node_get(root, "SZ"), "9");
    assert_string_equal(sgf_node_get(root, "C"), "x");
    const struct sgf_prop *ab = prop(root, "AB");
    assert_non_null(ab);
    assert_int_equal(ab->nvalues, 2);
    assert_string_equal(ab->values[1], "gg");
    assert_string_equal(sgf_node_get(root->child, "B"), "ee");
    assert_string_equal(sgf_node_get(root->child->child, "W"), "ff");
    sgf_collection_free(c);
}

static void test_repeated_properties_merge(void **state)
{
    (void)state;
    struct sgf_collection *c = parse("(;AP[GNU Go:3.8]AB[aa]AW[bb]AB[cc] [dd]AP[foxwq])", NULL);
    assert_non_null(c);
    const struct sgf_node *root = c->games[0];
    assert_int_equal(root->nprops, 3); /* AP, AB, AW */
    assert_string_equal(root->props[0].id, "AP");
    assert_int_equal(root->props[0].nvalues, 2);
    assert_string_equal(root->props[0].values[1], "foxwq");
    const struct sgf_prop *ab = prop(root, "AB");
    assert_int_equal(ab->nvalues, 3);
    assert_string_equal(ab->values[0], "aa");
    assert_string_equal(ab->values[1], "cc");
    assert_string_equal(ab->values[2], "dd");
    sgf_collection_free(c);
}

static void test_variations_main_line_first(void **state)
{
    (void)state;
    struct sgf_error err;
    struct sgf_collection *c =
        parse("(;SZ[9];B[aa](;W[bb];B[cc](;W[hh])(;W[ii]))(;W[dd];B[ee]))", &err);
    assert_non_null(c);
    assert_int_equal(err.line, 0);
    const struct sgf_node *b1 = c->games[0]->child;
    assert_string_equal(sgf_node_get(b1, "B"), "aa");
    assert_string_equal(sgf_node_get(b1->child, "W"), "bb");
    assert_string_equal(sgf_node_get(b1->child->sibling, "W"), "dd");
    assert_null(b1->child->sibling->sibling);
    assert_string_equal(sgf_node_get(b1->child->child->child->sibling, "W"), "ii");
    struct go_record *r = sgf_to_go_record(c->games[0], &err);
    assert_non_null(r);
    assert_int_equal(sgf_test_count_moves(r), 4); /* aa bb cc hh */
    assert_int_equal(r->nodes[4].move.point, go_point(7, 7));
    go_record_free(r);
    sgf_collection_free(c);
}

static void test_several_games_and_junk(void **state)
{
    (void)state;
    struct sgf_error err;
    struct sgf_collection *c = parse("\xEF\xBB\xBF"
                                     "Saved by X (c) 2004 ))\n"
                                     "(;GM[1]PB[one];B[aa])\n\n"
                                     "  (;GM[1]PB[two];W[bb])\n"
                                     "(;GM[1]PB[three])trailing words",
                                     &err);
    assert_non_null(c);
    assert_int_equal(c->ngames, 3);
    assert_string_equal(sgf_node_get(c->games[0], "PB"), "one");
    assert_string_equal(sgf_node_get(c->games[1], "PB"), "two");
    assert_string_equal(sgf_node_get(c->games[2], "PB"), "three");
    assert_true(err.line > 0); /* the trailing junk is reported, not fatal */
    assert_int_equal(err.line, 5);
    sgf_collection_free(c);
}

static void test_whitespace_anywhere(void **state)
{
    (void)state;
    struct sgf_error err;
    struct sgf_collection *c = parse(" ( \n ; GM [1]\tSZ\n[9] ; B [ee]\r\n;\nW\n[ff] ) ", &err);
    assert_non_null(c);
    assert_int_equal(err.line, 0);
    assert_string_equal(sgf_node_get(c->games[0], "SZ"), "9");
    assert_string_equal(sgf_node_get(c->games[0]->child->child, "W"), "ff");
    sgf_collection_free(c);
}

static void test_missing_paren_and_fox_start(void **state)
{
    (void)state;
    struct sgf_error err;
    struct sgf_collection *c = parse("(;GM[1];B[aa];W[bb]", &err);
    assert_non_null(c);
    assert_true(err.line > 0);
    assert_non_null(strstr(err.message, "')'"));
    sgf_collection_free(c);

    /* Fox Pro2: no '(' before the root, variations after it, one ')' too many at the end */
    c = parse(";GM[1]FF[4]  SZ[19];B[pd];W[dd]  (;B[pp]  (;W[dp])(;W[qd]))(;B[qq]))", &err);
    assert_non_null(c);
    assert_int_equal(c->ngames, 1);
    struct go_record *r = sgf_to_go_record(c->games[0], &err);
    assert_non_null(r);
    assert_int_equal(sgf_test_count_moves(r), 4);
    go_record_free(r);
    sgf_collection_free(c);
}

static void test_damage_line_column(void **state)
{
    (void)state;
    struct sgf_error err;
    struct sgf_collection *c = parse("(;GM[1]\nPB[x];B[aa]\n  C[never closed;W)", &err);
    assert_non_null(c); /* the moves before the damage are kept */
    assert_int_equal(err.line, 3);
    assert_int_equal(err.column, 4);
    assert_non_null(strstr(err.message, "unterminated"));
    sgf_collection_free(c);

    c = parse("(;GM[1]\r\n;B[aa]\r\n;B;W[bb])", &err);
    assert_non_null(c);
    assert_int_equal(err.line, 3);
    assert_int_equal(err.column, 2);
    assert_non_null(strstr(err.message, "without a value"));
    assert_int_equal(c->games[0]->child->child->nprops, 0); /* ";B" lost its B */
    assert_string_equal(sgf_node_get(c->games[0]->child->child->child, "W"), "bb");
    sgf_collection_free(c);

    c = parse("no game here, only (text)", &err);
    assert_null(c);
    assert_non_null(strstr(err.message, "no game"));
    c = parse("", &err);
    assert_null(c);
    c = parse("(;B[aa", &err);
    assert_non_null(c);
    assert_string_equal(sgf_node_get(c->games[0], "B"), "aa");
    sgf_collection_free(c);
}

/* Hostile shapes: deep nesting must not recurse, a long main line must not either. */
static void test_deep_nesting_and_long_lines(void **state)
{
    (void)state;
    size_t n = 200000;
    char *text = malloc(n * 8 + 16);
    memset(text, '(', n);
    strcpy(text + n, ";B[aa])");
    struct sgf_error err;
    struct sgf_collection *c = sgf_parse(text, strlen(text), &err);
    assert_null(c);
    assert_non_null(strstr(err.message, "deep"));
    assert_int_equal(err.line, 1);

    /* 9,000 nested variations, each with a move: allowed, and freed without recursion */
    size_t len = 0;
    for (int i = 0; i < 9000; i++)
        len += (size_t)sprintf(text + len, "(;B[%c%c]", 'a' + i % 19, 'a' + i / 19 % 19);
    c = sgf_parse(text, len, &err);
    assert_non_null(c);
    struct go_record *r = sgf_to_go_record(c->games[0], &err);
    assert_non_null(r);
    assert_int_equal(sgf_test_count_moves(r), 9000);
    go_record_free(r);
    sgf_collection_free(c);

    /* a main line of 400,000 nodes */
    len = 0;
    text[len++] = '(';
    for (size_t i = 0; i < 400000; i++) {
        memcpy(text + len, i % 2 ? ";W[]" : ";B[]", 4);
        len += 4;
    }
    text[len++] = ')';
    c = sgf_parse(text, len, &err);
    assert_non_null(c);
    r = sgf_to_go_record(c->games[0], &err);
    assert_non_null(r);
    assert_int_equal(sgf_test_count_moves(r), 400000);
    go_record_free(r);
    sgf_collection_free(c);
    free(text);
}

/* A node with very many different properties is capped (the property lookup is linear), and a
 * megabyte of them parses quickly. */
static void test_many_properties(void **state)
{
    (void)state;
    size_t cap = 1100000, len = 0;
    char *text = malloc(cap);
    len += (size_t)sprintf(text, "(;");
    for (int i = 0; len + 16 < cap - 2; i++) {
        char id[8];
        int v = i;
        for (int k = 0; k < 5; k++, v /= 26) id[k] = (char)('A' + v % 26);
        id[5] = '\0';
        len += (size_t)sprintf(text + len, "%s[x]", id);
    }
    text[len++] = ')';
    struct sgf_error err;
    struct sgf_collection *c = sgf_parse(text, len, &err);
    assert_non_null(c);
    assert_int_equal(c->games[0]->nprops, 256);
    assert_non_null(strstr(err.message, "too many different properties"));
    assert_int_equal(err.line, 1);
    sgf_collection_free(c);
    free(text);
}

static void test_junk_inside_a_tree(void **state)
{
    (void)state;
    struct sgf_error err;
    /* stray characters, a value without a property, a too-long identifier, lower-case only */
    struct sgf_collection *c =
        parse("(;GM[1] # ;[zz]B[aa] ;ABCDEFGHIJ[x]W[bb];lower[y]B[cc])", &err);
    assert_non_null(c);
    assert_true(err.line > 0);
    const struct sgf_node *n = c->games[0]->child;
    assert_string_equal(sgf_node_get(n, "B"), "aa");
    assert_int_equal(n->nprops, 1);
    assert_string_equal(sgf_node_get(n->child, "W"), "bb");
    assert_int_equal(n->child->nprops, 1);
    assert_string_equal(sgf_node_get(n->child->child, "B"), "cc");
    assert_int_equal(n->child->child->nprops, 1);
    sgf_collection_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escapes_and_soft_breaks),
        cmocka_unit_test(test_ff3_identifiers),
        cmocka_unit_test(test_repeated_properties_merge),
        cmocka_unit_test(test_variations_main_line_first),
        cmocka_unit_test(test_several_games_and_junk),
        cmocka_unit_test(test_whitespace_anywhere),
        cmocka_unit_test(test_missing_paren_and_fox_start),
        cmocka_unit_test(test_damage_line_column),
        cmocka_unit_test(test_deep_nesting_and_long_lines),
        cmocka_unit_test(test_many_properties),
        cmocka_unit_test(test_junk_inside_a_tree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
