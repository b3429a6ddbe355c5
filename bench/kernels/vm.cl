// A bytecode interpreter: every work-item runs the same program (`code`,
// `len` instructions) on its own registers for `steps` steps. The opcode is
// data for the compiler (a switch on a loaded value), one opcode is a
// data-dependent jump, and the program counter wraps with `% len`, a
// division by a kernel argument.
kernel void vm(global const uint *restrict code, uint len, global const uint *restrict input,
               global uint *restrict output, uint steps)
{
    uint gid = get_global_id(0);
    uint r0 = input[gid], r1 = gid, r2 = 0x9e3779b9u, r3 = 0;
    uint pc = gid % len;
    for (uint s = 0; s < steps; s++) {
        uint ins = code[pc];
        uint imm = ins >> 8;
        switch (ins & 7) {
        case 0:
            r0 += r1 ^ imm;
            break;
        case 1:
            r1 = (r1 << 3) ^ (r0 >> 2);
            break;
        case 2:
            r2 = r2 * 1664525u + r0;
            break;
        case 3:
            r3 ^= r2 + imm;
            break;
        case 4:
            r0 = (r0 ^ r3) * 0x85ebca6bu;
            break;
        case 5:
            // Jump forward when r0 is odd.
            if (r0 & 1)
                pc = (pc + imm) % len;
            break;
        case 6:
            r1 += r3 >> (imm & 15);
            break;
        default: {
            uint t = r0;
            r0 = r1;
            r1 = r2;
            r2 = t;
            break;
        }
        }
        pc = (pc + 1) % len;
    }
    output[gid] = r0 ^ r1 ^ r2 ^ r3;
}
