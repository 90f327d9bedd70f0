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
        request["messages"] = [{"role": "system", "content": "Answer in one sentence."}, {"role": "user", "content": prompt}]
        if as_json:
            request["response_format"] = {"type": "json_object"}
        return request

    def generate(self, prompt: str) -> str:
        completion = self.client.chat.completions.create(
            model="gpt-4o-mini",
            messages=[{"role": "user", "content": prompt}],
            **self._sampling(),
            **({"max_tokens": self.max_tokens} if self.max_tokens else {}),
        )
        return completion.choices[0].message.content or ""

    def generate_json(self, prompt: str) -> Dict[str, Any]:
        params = self._request(prompt, as_json=True)
        completion = self.client.chat.completions.create(**params, **self._sampling())
        return json.loads(completion.choices[0].message.content or "{}")


def main() -> None:
    plain = Model()
    print(plain.generate("Why is the sky blue?"))
    tuned = Model(temperature=0.3, max_tokens=40)
    print(tuned.generate("Invent a name for a cat."))
    data = Model(temperature=0.0).generate_json("Give the capital of Italy as JSON with the key capital.")
    print("capital:", data["capital"])


if __name__ == "__main__":
    main()
