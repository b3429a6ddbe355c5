// Driver: object-like and function-like #define macros, #if on a macro.
#define WIDTH 16
#define OFFSET 5
#define SQUARE(x) ((x) * (x))
#define USE_OFFSET 1

kernel void define_macros(global int *out) {
    int i = (int)get_global_id(0);
#if USE_OFFSET
    out[i] = SQUARE(i) % WIDTH + OFFSET;
#else
    out[i] = SQUARE(i) % WIDTH;
#endif
}
