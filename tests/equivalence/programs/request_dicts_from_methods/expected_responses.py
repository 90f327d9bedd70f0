"""A model wrapper that builds its requests in methods and conditional dicts, sent with `**`."""

import json
from typing import Any, Dict, Optional

from openai import OpenAI


class Model:
    def __init__(self, temperature: Optional[float] = None, max_tokens: int = 0) -> None:
        self.client = OpenAI()
        self.temperature = temperature
        self.max_tokens = max_tokens

    def _sampling(self) -> Dict[str, Any]:
        # Some models reject `temperature`: it is sent only when it is set.
        if self.temperature is None:
            return {}
        return {"temperature": self.temperature}

    def _request(self, prompt: str, as_json: bool) -> Dict[str, Any]:
        request: Dict[str, Any] = {"model": "gpt-4o-mini"}
        request["instructions"] = "Answer in one sentence."
        request["input"] = prompt
        if as_json:
            request["text"] = {"format": {"type": "json_object"}}
        return request

    def generate(self, prompt: str) -> str:
        completion = self.client.responses.create(
            model="gpt-4o-mini",
            input=prompt,
            **self._sampling(),
            **({"max_output_tokens": self.max_tokens} if self.max_tokens else {}),
        )
        return completion.output_text or ""

    def generate_json(self, prompt: str) -> Dict[str, Any]:
        params = self._request(prompt, as_json=True)
        completion = self.client.responses.create(**params, **self._sampling())
        return json.loads(completion.output_text or "{}")


def main() -> None:
    plain = Model()
    print(plain.generate("Why is the sky blue?"))
    tuned = Model(temperature=0.3, max_tokens=40)
    print(tuned.generate("Invent a name for a cat."))
    data = Model(temperature=0.0).generate_json("Give the capital of Italy as JSON with the key capital.")
    print("capital:", data["capital"])


if __name__ == "__main__":
    main()
