#!/usr/bin/env python3
"""Generates C++ tables from SPIRV-Headers' grammar JSON: names, and per instruction its
operand kinds (with quantifiers), result and result-type presence, required capabilities
and control-flow facts; for enumerants that take parameters, their operand kinds. Opcode
facts come from the grammar, not from hand-written lists; the grammar does not mark
block terminators, so the spec's list of them (SPIR-V 2.2.4, "Termination Instruction")
is the one fact written here."""
import json
import re
import sys

# SPIR-V 2.2.4: "Termination Instruction" (and the extensions' terminators).
TERMINATORS = {
    "OpBranch", "OpBranchConditional", "OpSwitch", "OpReturn", "OpReturnValue",
    "OpKill", "OpUnreachable", "OpTerminateInvocation", "OpIgnoreIntersectionKHR",
    "OpTerminateRayKHR", "OpEmitMeshTasksEXT",
}
RETURNS = {"OpReturn", "OpReturnValue"}
# Grammar classes of instructions that only appear inside a function's blocks.
FUNCTION_CLASSES = {
    "Arithmetic", "Bit", "Relational_and_Logical", "Conversion", "Composite", "Atomic",
    "Barrier", "Control-Flow", "Group", "Non-Uniform", "Image", "Derivative", "Pipe",
    "Device-Side_Enqueue", "Primitive", "Memory",
}
MODULE_SCOPE_EXCEPTIONS = {"OpVariable"}  # class Memory, also at module scope
FUNCTION_ONLY_EXTRA = {"OpFunctionParameter", "OpFunctionCall"}

FLAG_RESULT, FLAG_TYPE, FLAG_TERMINATOR, FLAG_BRANCH, FLAG_RETURN, FLAG_FUNCTION = (
    1, 2, 4, 8, 16, 32)
FLAG_EXECUTION_SCOPE = 64  # the first operand is the execution scope (barriers, group ops)
# The grammar's instruction classes, as C++ names ("Relational_and_Logical" ->
# RelationalAndLogical, "@exclude" -> Excluded); "" for the extended sets' rows.
def class_name(cls):
    if not cls:
        return "None"
    if cls == "@exclude":
        return "Excluded"
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"[-_ ]", cls))
# Operands of the Atomic class by their grammar names: where each sits among the
# operands that follow the result type and id (-1: absent).
ATOMIC_OPERANDS = (("pointer", ("'Pointer'",)), ("scope", ("'Memory'", "'Scope'")),
                   ("semantics", ("'Semantics'", "'Equal'")), ("unequal", ("'Unequal'",)),
                   ("value", ("'Value'",)), ("comparator", ("'Comparator'",)))
QUANTIFIER = {None: "One", "?": "Optional", "*": "Many"}


def value_of(v):
    return int(v, 0) if isinstance(v, str) else int(v)


def is_successor(opname, operand):
    """Operands of a branch that name the blocks it may go to (by their grammar names)."""
    name = operand.get("name", "")
    if operand["kind"] == "PairLiteralIntegerIdRef":
        return True
    return operand["kind"] == "IdRef" and ("Label" in name or name == "'Default'")


class Tables:
    def __init__(self, kinds):
        self.kinds = kinds
        self.kind_index = {k: i for i, k in enumerate(kinds)}
        self.operands = []  # (kind, quantifier, successor)
        self.caps = []
        self.classes = {"None"}

    def operand_span(self, opname, operands, branch):
        first = len(self.operands)
        for o in operands:
            self.operands.append((o["kind"], QUANTIFIER[o.get("quantifier")],
                                  branch and is_successor(opname, o)))
        return first, len(operands)

    def cap_span(self, names, capability_values):
        first = len(self.caps)
        self.caps.extend(capability_values[c] for c in names if c in capability_values)
        return first, len(self.caps) - first


def has_execution_scope(ops):
    rest = [o for o in ops if o["kind"] not in ("IdResultType", "IdResult")]
    return bool(rest) and rest[0]["kind"] == "IdScope" and rest[0].get("name") == "'Execution'"


def atomic_rows(instructions):
    rows, seen = [], set()
    for i in sorted(instructions, key=lambda i: i["opcode"]):
        if i.get("class") != "Atomic" or i["opcode"] in seen:
            continue
        seen.add(i["opcode"])
        names = [o.get("name") for o in i.get("operands", [])
                 if o["kind"] not in ("IdResultType", "IdResult")]
        where = [next((k for k, n in enumerate(names) if n in spellings), -1)
                 for _, spellings in ATOMIC_OPERANDS]
        rows.append("    {%d, %s}," % (i["opcode"], ", ".join(str(w) for w in where)))
    return "\n".join(rows)


def instruction_rows(tables, instructions, capability_values, core):
    rows, seen = [], set()
    for i in sorted(instructions, key=lambda i: i["opcode"]):  # for binary search
        if i["opcode"] in seen:
            continue  # aliases: keep the first (canonical) spelling
        seen.add(i["opcode"])
        name, ops = i["opname"], i.get("operands", [])
        kinds = [o["kind"] for o in ops]
        flags = 0
        if core:
            flags |= FLAG_RESULT if "IdResult" in kinds else 0
            flags |= FLAG_TYPE if "IdResultType" in kinds else 0
            flags |= FLAG_TERMINATOR if name in TERMINATORS else 0
            flags |= FLAG_RETURN if name in RETURNS else 0
            cls = i.get("class")
            flags |= FLAG_EXECUTION_SCOPE if has_execution_scope(ops) else 0
            if (cls in FUNCTION_CLASSES and name not in MODULE_SCOPE_EXCEPTIONS) or \
                    name in FUNCTION_ONLY_EXTRA:
                flags |= FLAG_FUNCTION
        branch = name in TERMINATORS and any(is_successor(name, o) for o in ops)
        flags |= FLAG_BRANCH if branch else 0
        first, count = tables.operand_span(name, ops, branch)
        cfirst, ccount = tables.cap_span(i.get("capabilities", []), capability_values)
        cls = class_name(i.get("class")) if core else "None"
        tables.classes.add(cls)
        rows.append('    {%d, "%s", %d, %d, %d, %d, %d, InstructionClass::%s},' %
                    (i["opcode"], name, first, count, cfirst, ccount, flags, cls))
    return "\n".join(rows)


def enum_param_rows(tables, grammars):
    rows = []
    for g in grammars:
        for k in g.get("operand_kinds", []):
            if k["category"] not in ("ValueEnum", "BitEnum"):
                continue
            seen = set()
            for e in k["enumerants"]:
                v = value_of(e["value"])
                if v in seen or not e.get("parameters"):
                    continue
                seen.add(v)
                first, count = tables.operand_span("", e["parameters"], False)
                rows.append("    {OperandKind::%s, %d, %d, %d}," % (k["kind"], v, first, count))
    return "\n".join(rows)


def names(pairs):
    seen, out = set(), []
    for value, name in pairs:
        if value in seen:
            continue
        seen.add(value)
        out.append('    {%d, "%s"},' % (value, name))
    return "\n".join(out)


def main():
    core_path, opencl_path, debuginfo_path, out_path = sys.argv[1:5]
    grammars = []
    for path in (core_path, opencl_path, debuginfo_path):
        with open(path) as f:
            grammars.append(json.load(f))
    core, opencl, debuginfo = grammars
    kinds, bit_enums, value_enums = [], set(), set()
    for g in grammars:
        for k in g.get("operand_kinds", []):
            if k["kind"] not in kinds:
                kinds.append(k["kind"])
            if k["category"] == "BitEnum":
                bit_enums.add(k["kind"])
            if k["category"] == "ValueEnum":
                value_enums.add(k["kind"])
    capability_values = {}
    for k in core["operand_kinds"]:
        if k["kind"] == "Capability":
            for e in k["enumerants"]:
                capability_values.setdefault(e["enumerant"], value_of(e["value"]))
    tables = Tables(kinds)
    core_rows = instruction_rows(tables, core["instructions"], capability_values, True)
    ocl_rows = instruction_rows(tables, opencl["instructions"], capability_values, False)
    dbg_rows = instruction_rows(tables, debuginfo["instructions"], capability_values, False)
    param_rows = enum_param_rows(tables, grammars)
    w = []
    w.append("// Generated by spirv/gen_grammar_tables.py from the SPIR-V grammar.\n")
    w.append("#pragma once\n#include <cstdint>\n\nnamespace spvsim::spirv::grammar {\n\n")
    w.append("struct NamedValue { uint32_t value; const char* name; };\n\n")
    w.append("enum class OperandKind : uint8_t {\n%s\n};\n\n" %
             "\n".join("  %s," % k for k in kinds))
    w.append("inline constexpr bool kBitEnum[] = {%s};\n\n" %
             ", ".join("true" if k in bit_enums else "false" for k in kinds))
    w.append("inline constexpr bool kValueEnum[] = {%s};\n\n" %
             ", ".join("true" if k in value_enums else "false" for k in kinds))
    w.append("enum class Quantifier : uint8_t { One, Optional, Many };\n\n")
    w.append("struct OperandDesc { OperandKind kind; Quantifier quantifier; bool successor; };\n\n")
    w.append("enum : uint8_t { kHasResult = %d, kHasType = %d, kTerminator = %d, kBranch = %d, "
             "kReturn = %d, kFunctionScope = %d, kExecutionScope = %d };\n\n" %
             (FLAG_RESULT, FLAG_TYPE, FLAG_TERMINATOR, FLAG_BRANCH, FLAG_RETURN, FLAG_FUNCTION,
              FLAG_EXECUTION_SCOPE))
    w.append("// The grammar's instruction classes (None: rows of the extended sets).\n")
    w.append("enum class InstructionClass : uint8_t {\n%s\n};\n\n" %
             "\n".join("  %s," % c for c in sorted(tables.classes)))
    w.append("// operands and capabilities index kOperandPool and kCapabilityPool.\n")
    w.append("struct InstructionRow { uint32_t opcode; const char* name; uint16_t firstOperand; "
             "uint8_t operandCount; uint16_t firstCapability; uint8_t capabilityCount; "
             "uint8_t flags; InstructionClass cls; };\n\n")
    w.append("// Per Atomic-class opcode, where its operands sit after the result type and id\n"
             "// (-1: absent); semantics is the Equal semantics of a compare-exchange.\n")
    w.append("struct AtomicOperandsRow { uint32_t opcode; int8_t %s; };\n\n" %
             ", ".join(n for n, _ in ATOMIC_OPERANDS))
    w.append("struct EnumParamsRow { OperandKind kind; uint32_t value; uint16_t firstOperand; "
             "uint8_t operandCount; };\n\n")
    pool = "\n".join("    {OperandKind::%s, Quantifier::%s, %s}," %
                     (k, q, "true" if s else "false") for k, q, s in tables.operands)
    w.append("inline constexpr OperandDesc kOperandPool[] = {\n%s\n};\n\n" % pool)
    w.append("inline constexpr uint32_t kCapabilityPool[] = {%s};\n\n" %
             ", ".join(str(c) for c in tables.caps))
    for table, rows in (("kCoreInstructions", core_rows), ("kOpenclStdInstructions", ocl_rows),
                        ("kOpenclDebugInfoInstructions", dbg_rows)):
        w.append("inline constexpr InstructionRow %s[] = {\n%s\n};\n\n" % (table, rows))
    w.append("inline constexpr EnumParamsRow kEnumParams[] = {\n%s\n};\n\n" % param_rows)
    w.append("inline constexpr AtomicOperandsRow kAtomicOperands[] = {\n%s\n};\n\n" %
             atomic_rows(core["instructions"]))
    ops = [(i["opcode"], i["opname"]) for i in core["instructions"]]
    caps = sorted(capability_values.items(), key=lambda kv: kv[1])
    caps = [(v, n) for n, v in caps]
    ocl = [(i["opcode"], i["opname"]) for i in opencl["instructions"]]
    for table, rows in (("kOpcodes", ops), ("kCapabilities", caps), ("kOpenclStd", ocl)):
        w.append("inline constexpr NamedValue %s[] = {\n%s\n};\n\n" % (table, names(rows)))
    w.append("}  // namespace spvsim::spirv::grammar\n")
    with open(out_path, "w") as f:
        f.write("".join(w))


if __name__ == "__main__":
    main()
