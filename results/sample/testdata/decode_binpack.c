/* A reader of dhbloo's c-gomoku-cli binpack entries, declaring the structs
 * of its game.cpp (Game::export_samples_binpack) with their bit fields: the C
 * compiler, not our writer, decides where each field lies. Prints one line
 * per entry: "boardSize rule result totalPly initPly gameTag moveCount", then
 * "|" and the opening's points "x,y", then "|" and each move as
 * "x,y/first,last,noEval,pass/eval". */
#include <stdint.h>
#include <stdio.h>

struct EntryHead {
    uint32_t boardSize : 5;
    uint32_t rule : 3;
    uint32_t result : 4;
    uint32_t totalPly : 10;
    uint32_t initPly : 10;
    uint32_t gameTag : 14;
    uint32_t moveCount : 18;
};

struct Move {
    uint16_t isFirst : 1;
    uint16_t isLast : 1;
    uint16_t isNoEval : 1;
    uint16_t isPass : 1;
    uint16_t reserved : 2;
    uint16_t move : 10;
    int16_t eval;
};

static int CoordX(uint16_t move) { return (move >> 5) & 0x1f; }
static int CoordY(uint16_t move) { return move & 0x1f; }

int main(int argc, char **argv) {
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f || sizeof(struct EntryHead) != 8 || sizeof(struct Move) != 4) return 3;
    struct EntryHead h;
    uint16_t opening[1024];
    struct Move moves[1024];
    while (fread(&h, sizeof h, 1, f) == 1) {
        if (h.initPly > 1024 || h.moveCount > 1024) return 2;
        if (fread(opening, sizeof(uint16_t), h.initPly, f) != h.initPly) return 2;
        if (fread(moves, sizeof(struct Move), h.moveCount, f) != h.moveCount) return 2;
        printf("%d %d %d %d %d %d %d |", h.boardSize, h.rule, h.result, h.totalPly, h.initPly, h.gameTag, h.moveCount);
        for (unsigned i = 0; i < h.initPly; i++) printf(" %d,%d", CoordX(opening[i]), CoordY(opening[i]));
        printf(" |");
        for (unsigned i = 0; i < h.moveCount; i++)
            printf(" %d,%d/%d,%d,%d,%d/%d", CoordX(moves[i].move), CoordY(moves[i].move), moves[i].isFirst,
                   moves[i].isLast, moves[i].isNoEval, moves[i].isPass, moves[i].eval);
        printf("\n");
    }
    return ferror(f) ? 1 : 0;
}
