/* SKaMPI configuration files (the Figure 1 format). */
#include "core/error.h"
#include "fuzz.h"
#include "skampi/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    sk_config c;
    memset(&c, 0, sizeof c);
    char err[EB_ERRLEN] = {0};
    if (sk_config_parse(text, "fuzz.skampi", &c, err, sizeof err))
        fuzz_clean_message(err);
    sk_config_free(&c);
    free(text);
    return 0;
}
