/*
 * pbrain_main.c — pbrain-tengen, the Gomocup brain. The protocol loop arrives with the engine;
 * until then the brain introduces itself and declines every request with an ERROR line, as the
 * protocol asks of a brain that cannot honour a command, and never crashes on input.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../tengen.h"

int main(void) {
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        char word[16] = {0};
        for (int i = 0; i < 15 && isalpha((unsigned char)line[i]); i++)
            word[i] = (char)toupper((unsigned char)line[i]);
        if (strcmp(word, "END") == 0) break;
        if (strcmp(word, "ABOUT") == 0)
            printf("name=\"tengen\", version=\"%s\", author=\"tengen developers\", "
                   "country=\"\"\n", TG_VERSION);
        else if (word[0])
            printf("ERROR this build of pbrain-tengen has no search engine yet\n");
        fflush(stdout);
    }
    return 0;
}
