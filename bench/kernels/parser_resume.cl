// A goto state machine: every work-item parses one fixed-length text record
// of integers separated by spaces or commas, with '#'...';' comments, and
// writes their sum and count (errors, i.e. stray characters, in the count's
// top byte). Like parser.cl, but a record starting with '*' resumes inside a
// comment left open by the record before: the machine is entered in the
// middle of its loop, so the control flow is irreducible (and divergent).
kernel void parse_resume(global const uchar *restrict text, uint rec_len,
                          global int *restrict sums, global uint *restrict counts)
{
    size_t r = get_global_id(0);
    global const uchar *p = text + r * rec_len;
    global const uchar *end = p + rec_len;
    int sum = 0, value = 0, sign = 1;
    uint count = 0, errors = 0;
    uchar c;

    if (*p == '*') {
        p++;
        goto comment;
    }
skip:
    if (p == end)
        goto done;
    c = *p++;
    if (c == ' ' || c == ',')
        goto skip;
    if (c == '#')
        goto comment;
    if (c == '-') {
        sign = -1;
        goto first_digit;
    }
    if (c >= '0' && c <= '9') {
        value = c - '0';
        goto digits;
    }
    errors++;
    goto skip;
first_digit:
    if (p == end) {
        errors++;
        goto done;
    }
    c = *p++;
    if (c >= '0' && c <= '9') {
        value = c - '0';
        goto digits;
    }
    errors++;
    sign = 1;
    goto skip;
digits:
    if (p == end)
        goto last;
    c = *p++;
    if (c >= '0' && c <= '9') {
        value = value * 10 + (c - '0');
        goto digits;
    }
    sum += sign * value;
    count++;
    sign = 1;
    value = 0;
    if (c == '#')
        goto comment;
    if (c == ' ' || c == ',')
        goto skip;
    errors++;
    goto skip;
comment:
    if (p == end)
        goto done;
    c = *p++;
    if (c == ';')
        goto skip;
    goto comment;
last:
    sum += sign * value;
    count++;
done:
    sums[r] = sum;
    counts[r] = count | (errors << 24);
}
