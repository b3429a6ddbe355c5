// Vector packets through two pipes, each passed twice: every work-item
// writes a float4 and a char3 (4 bytes in a pipe, as in memory), then
// reads one of each (trying again while other groups write) and stores it
// by the index it carries.
kernel void pipe_vectors(write_only pipe float4 out4, read_only pipe float4 in4,
                         write_only pipe char3 out3, read_only pipe char3 in3,
                         global float4 *got4, global char4 *got3) {
  int g = (int)get_global_id(0);
  float4 f = (float4)(g + 1, g + 0.5f, -g - 1, g * 2.0f + 1);
  char3 c = (char3)(g, -g, 7);
  write_pipe(out4, &f);
  write_pipe(out3, &c);
  barrier(CLK_GLOBAL_MEM_FENCE);
  float4 rf;
  char3 rc;
  while (read_pipe(in4, &rf) != 0) {
  }
  while (read_pipe(in3, &rc) != 0) {
  }
  got4[(int)rf.x - 1] = rf;
  got3[rc.x] = (char4)(rc, 1);
}
