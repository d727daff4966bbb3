# The fourth seed's orchestrator code (validation, truncate_conversation_history and the
# conversation section of format_task_enrichment_prompt), as its design gives it: the reference
# lib/domain/history/handoff.test.ts checks Threadline's handoff against. Reads a JSON list of
# {role, content} on stdin, writes {text, messages, warnings} as JSON on stdout. Tests only.
import json
import sys


def truncate_conversation_history(messages):
    USER_MAX_CHARS = 150
    ASSISTANT_MAX_CHARS = 8192
    truncated_messages = []
    for msg in messages:
        role = msg['role']
        content = msg['content']
        truncated = False
        if role == 'user':
            if len(content) > USER_MAX_CHARS:
                content = content[:USER_MAX_CHARS] + "... [truncated]"
                truncated = True
        elif role == 'assistant':
            if len(content) > ASSISTANT_MAX_CHARS:
                content = content[:ASSISTANT_MAX_CHARS] + f"... [truncated at {ASSISTANT_MAX_CHARS} chars]"
                truncated = True
        truncated_messages.append({'role': role, 'content': content, 'truncated': truncated})
    return truncated_messages


def validate(conversation_history):
    warnings = []
    valid_messages = []
    for i, msg in enumerate(conversation_history):
        if msg['role'] not in ['user', 'assistant', 'system']:
            warnings.append(f"conversation_history[{i}] has invalid role '{msg['role']}', skipping")
            continue
        if not isinstance(msg['content'], str) or len(msg['content'].strip()) == 0:
            warnings.append(f"conversation_history[{i}] has empty/invalid content, skipping")
            continue
        valid_messages.append({'role': msg['role'], 'content': msg['content'].strip()})
    return valid_messages, warnings


def conversation_section(conv_history):
    sections = []
    if conv_history:
        conv_lines = []
        for i, msg in enumerate(conv_history, 1):
            role_emoji = "👤" if msg['role'] == 'user' else "🤖"
            role_label = msg['role'].upper()
            content = msg['content']
            truncation_note = " [TRUNCATED]" if msg.get('truncated') else ""
            conv_lines.append(f"{i}. {role_emoji} {role_label}{truncation_note}:")
            conv_lines.append(f"   {content}")
            conv_lines.append("")
        conversation_text = '\n'.join(conv_lines)
        sections.append(f"""
💬 CONVERSATION HISTORY (Context leading to this task):
{conversation_text}
""")
    return sections[0] if sections else ""


valid, warnings = validate(json.load(sys.stdin))
messages = truncate_conversation_history(valid)
json.dump({'text': conversation_section(messages), 'messages': messages, 'warnings': warnings}, sys.stdout)
