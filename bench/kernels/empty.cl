// Does nothing: launched to measure the overhead of a launch.
kernel void empty(global uint *unused)
{
}
