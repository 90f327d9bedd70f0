from helpdesk import llm


def tokens_for(question: str) -> str:
    completion = llm.complete(question, system="Answer with one word.")
    if completion.usage is None:
        return "no usage"
    return f"{completion.usage.prompt_tokens} in, {completion.usage.completion_tokens} out"
