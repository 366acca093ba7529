/* JSON Lines (docs/json-lines.md).  This header gathers the writer, the
 * record reader and --resume, which every component uses.  (The reporter of
 * IMB runs is imb/driver/report/imb_jsonl.h.) */
#ifndef EB_REPORT_JSONL_H
#define EB_REPORT_JSONL_H

#include "core/report/jsonl_reader.h"
#include "core/report/jsonl_resume.h"
#include "core/report/jsonl_writer.h"

#endif
