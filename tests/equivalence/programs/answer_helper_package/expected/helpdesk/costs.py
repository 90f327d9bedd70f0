from helpdesk import llm


def tokens_for(question: str) -> str:
    completion = llm.complete(question, system="Answer with one word.")
    if completion.usage is None:
        return "no usage"
    return f"{completion.usage.input_tokens} in, {completion.usage.output_tokens} out"
