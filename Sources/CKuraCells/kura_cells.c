#include "CKuraCells.h"

// The writer stages millions of cells: each must stay two words.
_Static_assert(sizeof(struct kura_cell) == 16, "a kura_cell is 16 bytes");
