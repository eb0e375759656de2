/* The rules' tables (see rules.h). */
#include "rules.h"

mask_t COLOUR_MASK[7];
mask_t EVEN_MASK;
mask_t BELOW4_MASK;
uint8_t RUN_LENGTH[128], RUN_TOP[128];

void red7_init_tables(void) {
    for (int colour = 0; colour < 7; colour++) {
        COLOUR_MASK[colour] = 0;
        for (int value = 1; value <= 7; value++) COLOUR_MASK[colour] |= (mask_t)1 << ((value - 1) * 7 + (6 - colour));
    }
    EVEN_MASK = BELOW4_MASK = 0;
    for (int value = 1; value <= 7; value++) {
        mask_t chunk = (mask_t)127 << ((value - 1) * 7);
        if (value % 2 == 0) EVEN_MASK |= chunk;
        if (value < 4) BELOW4_MASK |= chunk;
    }
    /* the higher run on a tie (it holds the higher card), as red7.core.rules */
    for (int present = 0; present < 128; present++) {
        int best_length = 0, best_top = 0, length = 0;
        for (int v = 0; v < 7; v++) {
            length = (present >> v & 1) ? length + 1 : 0;
            if (length && length >= best_length) best_length = length, best_top = v;
        }
        RUN_LENGTH[present] = (uint8_t)best_length;
        RUN_TOP[present] = (uint8_t)best_top;
    }
}

