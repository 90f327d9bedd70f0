"""A stand-in for the part of Gradio 5 the program uses, printing what the chat shows.

`ChatInterface(fn=..., type="messages").launch()` sends the chat two messages, as a user would.
Gradio 5 gives the function the history as its Chatbot keeps it: each message a dict of the role,
the content, and `metadata` and `options` (None unless set), which Chat Completions ignores.
"""

from typing import Any, Callable, List

QUESTIONS = ("How much is a ticket to London?", "Thanks!")


class ChatInterface:
    def __init__(self, fn: Callable, type: str = "tuples") -> None:
        self.fn = fn

    def launch(self) -> None:
        history: List[Any] = []
        for question in QUESTIONS:
            answer = self.fn(question, [dict(message) for message in history])
            print(f"[chat] {answer}")
            for role, content in (("user", question), ("assistant", answer)):
                history.append({"role": role, "metadata": None, "content": content, "options": None})
