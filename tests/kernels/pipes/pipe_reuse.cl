// Slots used again within one barrier interval: one group of 128
// work-items and a pipe of 32 (the widest gang); each work-item writes a
// packet and at once reads one, so the ring goes round four times and
// every slot is written and read by several work-items without a
// barrier between them (the pipe functions order them; checked mode must
// not call it a race). Every packet arrives exactly once.
kernel __attribute__((reqd_work_group_size(128, 1, 1))) void pipe_reuse(
    write_only pipe short out, read_only pipe short in, global int *seen, global int *failed) {
  short mine = (short)(get_local_id(0) * 2 - 100);
  if (write_pipe(out, &mine) != 0) atomic_inc(&failed[0]);
  short v;
  if (read_pipe(in, &v) == 0)
    atomic_inc(&seen[(v + 100) / 2]);
  else
    atomic_inc(&failed[1]);
}
