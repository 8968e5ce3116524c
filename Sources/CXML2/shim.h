// libxml2, for DASH MPDs: the parser the field uses (FFmpeg's own dash demuxer reads MPDs with it);
// and its xmlTextWriter for the JUnit reports of landing checks.
#ifndef FRAMESEEK_CXML2_SHIM_H
#define FRAMESEEK_CXML2_SHIM_H
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, and its encoding.h then includes the system's ICU headers,
// whose enums clash with the toolchain's own copy of ICU that Foundation imports. Nothing here
// uses libxml2's ICU converters (the only struct they change, xmlCharEncodingHandler, is never
// touched from Swift), so the headers are read as if it were built without.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>

// xmlFree is a global function pointer, which Swift 6 will not call from a nonisolated context.
static inline void fs_xml_free(void *pointer) { xmlFree(pointer); }
#endif
