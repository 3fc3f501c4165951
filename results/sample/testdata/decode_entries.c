/* A reader of c-gomoku-cli's binary sample entries, written from the layout
 * its README publishes (struct Entry with bit fields), not from our writer:
 * the C compiler lays the bit fields out, so the test checks our packing
 * against the layout an engine's trainer compiles. Prints one line per entry:
 * "result ply boardsize rule x,y" then the position's points "x,y". */
#include <stdint.h>
#include <stdio.h>

struct EntryHead {
    uint16_t result : 2;
    uint16_t ply : 9;
    uint16_t boardsize : 5;
    uint16_t rule : 3;
    uint16_t move : 13;
};

static int CoordX(uint16_t move) { return (move >> 5) & 0x1f; }
static int CoordY(uint16_t move) { return move & 0x1f; }

int main(int argc, char **argv) {
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f || sizeof(struct EntryHead) != 4) return 3;
    struct EntryHead h;
    uint16_t position[1024];
    while (fread(&h, sizeof h, 1, f) == 1) {
        if (fread(position, sizeof(uint16_t), h.ply, f) != h.ply) return 2;
        printf("%d %d %d %d %d,%d", h.result, h.ply, h.boardsize, h.rule, CoordX(h.move), CoordY(h.move));
        for (int i = 0; i < h.ply; i++) printf(" %d,%d", CoordX(position[i]), CoordY(position[i]));
        printf("\n");
    }
    return ferror(f) ? 1 : 0;
}
