// Struct packets (12 bytes with a byte of padding): a pipe holding 40
// items, each read by one of 48 work-items and scattered by its id; the
// last 8 reads find the pipe empty.
typedef struct {
  int id;
  char tag;
  short value;
  int extra;
} Item;

kernel void pipe_structs(read_only pipe Item in, global char *tags, global int *sums,
                         global int *failed) {
  Item item;
  if (read_pipe(in, &item) != 0) {
    atomic_inc(failed);
    return;
  }
  tags[item.id] = item.tag;
  sums[item.id] = item.value + item.extra;
}
