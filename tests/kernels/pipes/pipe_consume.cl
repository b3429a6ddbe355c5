// Readers of a pipe holding 64 packets: 80 work-items each read one with
// read_pipe (no reservation); the first 64 reads succeed, whatever their
// order, the other 16 find the pipe empty.
kernel void pipe_consume(read_only pipe int in, global int *seen, global int *failed) {
  int v;
  if (read_pipe(in, &v) == 0)
    atomic_inc(&seen[v]);
  else
    atomic_inc(failed);
}
